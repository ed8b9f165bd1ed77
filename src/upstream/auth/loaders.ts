// PLACEHOLDER owned by the auth-area work: replaced by the real loaders.
import type { HttpClient } from '../http-types';
import type { LoaderOptions } from '../loader-options';

export type AuthLoaders = Record<string, never>;

export function createAuthLoaders(_http: HttpClient, _options: LoaderOptions): AuthLoaders {
  return {};
}
