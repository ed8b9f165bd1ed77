/**
 * What every bench query carries next to its GraphQL document: how to pick its variables from
 * the data, the lower bound of upstream calls and the sequential round trips (each with its
 * one-line reason), and a correctness check run before anything is timed.
 */
import type { JsonObject } from '../../src/core/parse';
import type { UpstreamFacts } from '../facts';

export interface Bound {
  value: number;
  reason: string;
}

export interface BenchQuery {
  name: string;
  /** The GraphQL document (from the `.graphql` file beside the module). */
  document: string;
  /** Why this query cannot run on this data/sandbox, or null when it can. */
  unavailable(facts: UpstreamFacts): string | null;
  variables(facts: UpstreamFacts): Record<string, unknown>;
  lowerBoundCalls(facts: UpstreamFacts): Bound;
  roundTrips(facts: UpstreamFacts): Bound;
  /** Throws CheckError when `data` is not what the sandbox's data says it must be. */
  check(data: JsonObject, facts: UpstreamFacts): void;
  /**
   * Tighter caps for the unbatched phases of queries that cost thousands of calls unbatched, so
   * the whole run stays within its 5-minute budget: latency iterations and time, and the
   * throughput phase's concurrency (reported in results.json).
   */
  unbatchedCaps?: { iterations: number; maxMs: number; concurrency: number };
}
