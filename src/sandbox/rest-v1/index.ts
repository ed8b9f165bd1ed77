/**
 * The rest/v1 + identity/v1 area of the sandbox: routes from the resource table plus the special
 * operations (relations, memberships, CSV uploads, blueprints, processes, search proxy).
 */
import type { AreaContext, AsyncChangeKind, SandboxArea, SeedSize } from '../core/types';
import { timestamp } from './format';
import type { AreaState, SearchService } from './area-state';
import { csvOverrides } from './csv-uploads';
import { memberRoutes } from './member-routes';
import { miscRoutes } from './misc-routes';
import { organizationRoutes } from './organization-routes';
import { processRoutes } from './process-routes';
import { relationRoutes } from './relations';
import { seedRestV1, type RestV1Facts } from './seed';
import { Store } from './store';
import { tableRoutes } from './table-routes';

export type { RestV1Facts } from './seed';
export { PROCESS_KINDS } from './processes';
export type { SearchService } from './area-state';

export interface RestV1Area extends SandboxArea {
  /** Key facts of the current seed. */
  facts(): RestV1Facts | null;
  /** Binds the search service the `/elastic/ncentityevent/...` proxy calls. */
  bindSearch(service: SearchService): void;
  /**
   * Sets a resource's `status` now, as if the platform changed it on its own (a gateway failing):
   * what was scheduled for it is dropped. False when there is no such resource.
   */
  setStatus(kind: AsyncChangeKind, id: string, status: number): boolean;
}

export interface RestV1AreaOptions {
  /** Multiplies the seed's networks (see seed.ts). @default 1 */
  scale?: number;
}

export function createRestV1Area(ctx: AreaContext, options: RestV1AreaOptions = {}): RestV1Area {
  let search: SearchService | null = null;
  let facts: RestV1Facts | null = null;
  const state: AreaState = { store: new Store(), ctx, search: () => search };
  return {
    name: 'rest-v1',
    routes: [
      ...tableRoutes(state, csvOverrides()),
      ...organizationRoutes(state),
      ...relationRoutes(state),
      ...memberRoutes(state),
      ...processRoutes(state),
      ...miscRoutes(state),
    ],
    seed(size: SeedSize) {
      state.store = new Store();
      facts = seedRestV1(state.store, ctx, size, options.scale ?? 1);
    },
    facts: () => facts,
    bindSearch(service) {
      search = service;
    },
    setStatus(kind, id, status) {
      const now = ctx.clock.now();
      state.store.advance(now);
      const entity = state.store.get(kind, id);
      if (entity === undefined) return false;
      entity.scheduled.length = 0;
      Object.assign(entity.data, { status, updatedAt: timestamp(now) });
      return true;
    },
  };
}
