/**
 * The prefetch plan of rest/v1 (selection look-ahead, `../lookahead.ts`). graphql-js asks a field
 * only once its parent is in, one level per round trip; a resolver that holds (or is loading) the
 * parents of a nested list starts that list now, so it runs in the same round trip as lists the
 * executor asks one level earlier.
 *
 * One table: per kind of parent a resolver holds, the paths of connection fields below it that
 * start reads, and what they start. Each row starts the read through the loaders' `prefetch`
 * (upstream/network/prefetch-plan.ts says when the plan would use it), under the same cache keys
 * the nested field then reads, with that field's own arguments: no extra call, no changed answer.
 * Rows never throw and never fail the operation: arguments that do not validate start nothing
 * (the field reports them), a failed read is left to the field that reads it.
 *
 * `networkGroups → networks → endpoints → appWans → services` then takes 3 round trips instead
 * of 6: groups ‖ all networks → the group endpoint lists ‖ each network's AppWAN list and
 * endpoint-group list → AppWAN members ‖ AppWAN endpoint groups ‖ group members ‖ AppWAN
 * services. `Network.endpoints` needs no row: the executor asks it as soon as the networks are
 * in, which is the trip the rows bring forward.
 */
import type { GraphQLResolveInfo } from 'graphql';
import type { NetworkLoaders } from '../../upstream/network/loaders';
import type { SortSpec } from '../../upstream/network/client';
import type { NetworkRecord } from '../../upstream/network/records';
import type { PagedResult } from '../../upstream/paging';
import { pageWindow, type ConnectionArgs } from '../connection';
import { along, nodesSelectionOf, type SelectedField, type Selection } from '../lookahead';
import { SORTABLE, sortSpecs, type SortArg } from './lists';

/** What a resolver knows of the parents when it consults the plan. */
export interface PrefetchParents {
  /** Network groups still loading: how many the window can hold. */
  groups: { window: number };
  /** Networks known (or at least their ids). */
  networks: { ids: readonly string[] };
}

interface PrefetchRow<K extends keyof PrefetchParents> {
  /** Connection fields below the parents, each below the previous one's nodes. */
  path: readonly string[];
  /** Starts the reads; `fields` are the occurrences of the path's first field. */
  start(loaders: NetworkLoaders, parents: PrefetchParents[K], fields: readonly SelectedField[]): void;
}

type PrefetchTable = { [K in keyof PrefetchParents]: readonly PrefetchRow<K>[] };

const table: PrefetchTable = {
  groups: [
    // The shared `/networks` list, alongside the group list (list-plan.ts: one list for all groups).
    {
      path: ['networks'],
      start: (loaders, groups, networks) => {
        for (const sort of distinctSorts(networks, SORTABLE.network)) loaders.prefetch.groupNetworks(sort, groups.window);
      },
    },
  ],
  networks: [
    // The membership index's AppWAN and endpoint-group lists, alongside the endpoint lists (plan.ts).
    {
      path: ['endpoints', 'appWans'],
      start: (loaders, networks, endpoints) => {
        const window = windowSize(endpoints);
        for (const id of networks.ids) loaders.prefetch.endpointAppWans(id, window);
      },
    },
    // Each AppWAN's service list, alongside the index's member lists.
    {
      path: ['endpoints', 'appWans', 'services'],
      start: (loaders, networks, endpoints) => {
        const window = windowSize(endpoints);
        for (const id of networks.ids) loaders.prefetch.appWanServices(id, window);
      },
    },
  ],
};

/**
 * Starts what the selection below the parents needs (`selection`: below the parents' nodes).
 * Never throws: a look-ahead must not fail the operation by itself.
 */
export function prefetchBelow<K extends keyof PrefetchParents>(kind: K, loaders: NetworkLoaders, selection: Selection, parents: PrefetchParents[K]): void {
  const rows: readonly PrefetchRow<K>[] = table[kind];
  for (const row of rows) {
    const [first] = row.path;
    if (first === undefined || along(selection, ...row.path).length === 0) continue;
    try {
      row.start(loaders, parents, selection.get(first) ?? []);
    } catch {
      // Arguments that do not validate: the field itself reports them when it is asked.
    }
  }
}

/** A window of networks being loaded; once in, starts what is selected below their nodes. */
export async function prefetchingNetworks(
  loaders: NetworkLoaders,
  info: GraphQLResolveInfo,
  load: Promise<PagedResult<NetworkRecord>>,
): Promise<PagedResult<NetworkRecord>> {
  const result = await load;
  prefetchBelow('networks', loaders, nodesSelectionOf(info), { ids: result.items.map((n) => n.id) });
  return result;
}

/** How many items the occurrences' windows can hold together (an occurrence whose window does not validate holds none). */
function windowSize(fields: readonly SelectedField[]): number {
  let size = 0;
  for (const { args } of fields) {
    try {
      size += pageWindow(connectionArgs(args)).limit;
    } catch {
      // Not a window the field will read.
    }
  }
  return size;
}

/** The distinct sorts the occurrences ask (each valid one once). */
function distinctSorts(fields: readonly SelectedField[], allowed: readonly string[]): SortSpec[][] {
  const sorts = new Map<string, SortSpec[]>();
  for (const { args } of fields) {
    try {
      const given = sortArgs(args['sort']);
      if (given === null) continue;
      const sort = sortSpecs(given, allowed);
      sorts.set(JSON.stringify(sort), sort);
    } catch {
      // Not a sort the field will ask.
    }
  }
  return [...sorts.values()];
}

function connectionArgs(args: Readonly<Record<string, unknown>>): ConnectionArgs {
  const { first, after } = args;
  return {
    ...(typeof first === 'number' ? { first } : {}),
    ...(typeof after === 'string' ? { after } : {}),
  };
}

/** `sort: [SortInput!]` as coerced by graphql-js (absent or null: no sort); null for anything else. */
function sortArgs(value: unknown): SortArg[] | null {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) return null;
  const out: SortArg[] = [];
  for (const item of value) {
    if (typeof item !== 'object' || item === null || !('field' in item) || typeof item.field !== 'string') return null;
    const direction = 'direction' in item && (item.direction === 'ASC' || item.direction === 'DESC') ? item.direction : null;
    out.push({ field: item.field, direction });
  }
  return out;
}
