/**
 * The core/v2 area (the management API v2): creates of networks, edge routers, edge router policies, services,
 * AppWANs and endpoints answering 202 with an execution to poll, plus lists and fetches.
 */
import type { AreaContext, SandboxArea } from '../core/types';
import { v2Routes } from './routes';
import { seedV2 } from './seed';
import { V2Store } from './store';

export { V2_KINDS, SERVICE_MODEL_TYPES } from './kinds';
export { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './routes';

export interface CoreV2Area extends SandboxArea {
  /** The current state, for tests. */
  store(): V2Store;
}

export function createCoreV2Area(ctx: AreaContext): CoreV2Area {
  let store = new V2Store();
  return {
    name: 'core/v2',
    routes: v2Routes({ ctx, store: () => store }),
    seed(size) {
      store = seedV2(ctx, size);
    },
    store: () => store,
  };
}
