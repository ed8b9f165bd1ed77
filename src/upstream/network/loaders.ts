// PLACEHOLDER owned by the network-graph work: replaced by the real loaders.
import type { HttpClient } from '../http-types';
import type { LoaderOptions } from '../loader-options';

export type NetworkLoaders = Record<string, never>;

export function createNetworkLoaders(_http: HttpClient, _options: LoaderOptions): NetworkLoaders {
  return {};
}
