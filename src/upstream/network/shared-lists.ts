/**
 * Lists that one shared upstream list can answer for many parents (list-plan.ts says when and
 * why): a group's networks from the one `/networks` list, a network's endpoints from its group's
 * `/networkgroups/{g}/endpoints` list. One generic DataLoader per row of a small table; each
 * batch is split by shared list and sort, and the rule picks the plan per split.
 */
import DataLoader from 'dataloader';
import type { PagedResult, PageWindow } from '../paging';
import type { SortSpec } from './client';
import { chooseSharedListPlan, type SharedListPlan } from './list-plan';

/** One kind of list a shared list can answer (a row of the table in loaders.ts). */
export interface SharedListDef<P, R> {
  /** For plan records and keys. */
  name: string;
  parentId(parent: P): string;
  /** The shared list that may answer this parent (e.g. its group id), or null when none can. */
  sharedOf(parent: P): string | null;
  /** The parent's own list (the per-parent plan): exactly today's request. */
  ownList(parent: P, sort: readonly SortSpec[], window: PageWindow): Promise<PagedResult<R>>;
  /** Every item of the shared list, asked in `sort`. */
  sharedList(shared: string, sort: readonly SortSpec[]): Promise<R[]>;
  /** The parent id an item belongs to; null when the item does not say. */
  ownerOf(item: R): string | null;
  /** Whether one partition is in the order its own list would give. */
  inOrder(items: readonly R[], sort: readonly SortSpec[]): boolean;
  /**
   * A parent absent from the shared list asks its own list (the shared list may not cover it),
   * instead of being answered empty.
   */
  absentAsksOwn: boolean;
}

/** What the rule decided in this request (for logs, tests and the benchmark). */
export interface ListPlanRecord {
  list: string;
  shared: string;
  parents: number;
  plan: SharedListPlan;
  /** The shared list was read but could not answer exactly: answered per parent. */
  sharedInexact?: true;
}

export interface SharedListLoader<P, R> {
  load(parent: P, sort: readonly SortSpec[], window: PageWindow): Promise<PagedResult<R>>;
  /**
   * Starts the shared list `shared` in `sort` before its parents ask (selection look-ahead): once
   * loading, the rule answers them from it (`sharedLoaded`). Nothing starts with batching off; a
   * failure is not remembered, and is left to the parents' loads.
   */
  prefetch(shared: string, sort: readonly SortSpec[]): void;
  clearAll(): void;
}

interface Ask<P> {
  parent: P;
  sort: readonly SortSpec[];
  window: PageWindow;
}

/** Partition of a loaded shared list: owner id → items; null when it cannot answer exactly. */
type Partition<R> = Map<string, R[]> | null;

export function createSharedListLoader<P, R>(
  def: SharedListDef<P, R>,
  batching: boolean,
  plans: ListPlanRecord[],
): SharedListLoader<P, R> {
  const asks = new Map<string, Ask<P>>();
  const loaded = new Map<string, Promise<Partition<R>>>();
  const exact = new Map<string, boolean>();
  const sharedKeyOf = (shared: string | null, sort: readonly SortSpec[]): string => `${def.name}:${shared ?? ''}:${JSON.stringify(sort)}`;

  function partitioned(shared: string, sort: readonly SortSpec[], key: string): Promise<Partition<R>> {
    const hit = loaded.get(key);
    if (hit !== undefined) return hit;
    const started = def.sharedList(shared, sort).then((items) => {
      const parts = partitionBy(items, (item) => def.ownerOf(item));
      const ok = parts !== null && [...parts.values()].every((part) => def.inOrder(part, sort));
      exact.set(key, ok);
      return ok ? parts : null;
    });
    loaded.set(key, started);
    started.catch(() => loaded.delete(key)); // a failure is not remembered: a later field may retry
    return started;
  }

  async function answerSplit(shared: string | null, keys: readonly string[], results: Map<string, PagedResult<R> | Error>): Promise<void> {
    const first = asks.get(keys[0] ?? '');
    if (first === undefined) return;
    const sort = first.sort;
    const sharedKey = sharedKeyOf(shared, sort);
    const parents = new Set(keys.map((k) => def.parentId(asks.get(k)?.parent ?? first.parent))).size;
    const input = { batching, parentsInBatch: shared === null ? 0 : parents, sharedLoaded: loaded.has(sharedKey), sharedExact: exact.get(sharedKey) ?? null };
    const record: ListPlanRecord = { list: def.name, shared: shared ?? '', parents, plan: chooseSharedListPlan(input) };
    plans.push(record);
    let parts: Partition<R> = null;
    if (record.plan === 'shared' && shared !== null) {
      try {
        parts = await partitioned(shared, sort, sharedKey);
      } catch (err) {
        for (const k of keys) results.set(k, toError(err));
        return;
      }
      if (parts === null) {
        // The rule again, now that the shared list is known to be inexact: per parent.
        record.plan = chooseSharedListPlan({ ...input, sharedLoaded: true, sharedExact: false });
        record.sharedInexact = true;
      }
    }
    await Promise.all(
      keys.map(async (k) => {
        const ask = asks.get(k);
        if (ask === undefined) return;
        const part = parts?.get(def.parentId(ask.parent));
        try {
          if (parts !== null && (part !== undefined || !def.absentAsksOwn)) results.set(k, windowOf(part ?? [], ask.window));
          else results.set(k, await def.ownList(ask.parent, ask.sort, ask.window));
        } catch (err) {
          results.set(k, toError(err));
        }
      }),
    );
  }

  const loader = new DataLoader<string, PagedResult<R>>(
    async (keys) => {
      const results = new Map<string, PagedResult<R> | Error>();
      // Split by (shared list, sort): only parents asking the same order share one read.
      const splits = new Map<string, { shared: string | null; keys: string[] }>();
      for (const k of keys) {
        const ask = asks.get(k);
        if (ask === undefined) continue;
        const shared = def.sharedOf(ask.parent);
        const splitKey = JSON.stringify([shared, ask.sort]);
        const split = splits.get(splitKey) ?? { shared, keys: [] };
        split.keys.push(k);
        splits.set(splitKey, split);
      }
      await Promise.all([...splits.values()].map((s) => answerSplit(s.shared, s.keys, results)));
      return keys.map((k) => results.get(k) ?? new Error(`no ${def.name} answer for ${k}`));
    },
    batching ? {} : { batch: false, cache: false },
  );

  return {
    load(parent, sort, window) {
      const key = JSON.stringify([def.parentId(parent), sort, window.offset, String(window.count)]);
      asks.set(key, { parent, sort, window });
      return loader.load(key);
    },
    prefetch(shared, sort) {
      if (batching) partitioned(shared, sort, sharedKeyOf(shared, sort)).catch(() => undefined);
    },
    clearAll() {
      asks.clear();
      loaded.clear();
      exact.clear();
      loader.clearAll();
    },
  };
}

/**
 * Items by owner (in list order), or null when one item does not say its owner: then the
 * partition cannot be the upstream's answer.
 */
export function partitionBy<T>(items: readonly T[], ownerOf: (item: T) => string | null): Map<string, T[]> | null {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const owner = ownerOf(item);
    if (owner === null || owner === '') return null;
    const bucket = out.get(owner);
    if (bucket === undefined) out.set(owner, [item]);
    else bucket.push(item);
  }
  return out;
}

/** The window of a whole list, with the list's size as its total (what a windowed read reports). */
function windowOf<R>(items: readonly R[], window: PageWindow): PagedResult<R> {
  const end = Number.isFinite(window.count) ? window.offset + window.count : items.length;
  return { items: items.slice(window.offset, end), totalCount: items.length };
}

function toError(err: unknown): Error {
  return err instanceof Error ? err : new Error(String(err));
}
