/** What rest/v1 handlers share: the store, the area context, and who is calling. */
import type { AreaContext, Caller } from '../core/types';
import type { Store } from './store';

export interface Env {
  store: Store;
  ctx: AreaContext;
  caller: Caller;
  now: number;
  params: Record<string, string>;
}
