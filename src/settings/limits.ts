/** What one operation and one caller may cost: the price before running, the budget while running, turns, quotas. */
import { DEFAULT_LIMITS } from '../limits/limits';
import { area, int, optionalInt, type SettingsOf } from './setting';

const { price, budget, admission } = DEFAULT_LIMITS;

export const MAX_DOCUMENT_BYTES = int({
  name: 'MAX_DOCUMENT_BYTES',
  meaning: 'largest document, checked before parsing (`bytes`); a request body is at most 1 MiB in any case',
  min: 64,
  max: 1024 * 1024,
  fallback: price.maxDocumentBytes,
});
export const MAX_DOCUMENT_TOKENS = int({ name: 'MAX_DOCUMENT_TOKENS', meaning: 'most tokens in a document, counted before parsing (`tokens`)', min: 10, max: 1_000_000, fallback: price.maxDocumentTokens });
export const MAX_DEPTH = int({ name: 'MAX_DEPTH', meaning: "deepest field nesting, fragments inlined, introspection's `ofType` chains not counted (`depth`)", min: 2, max: 1000, fallback: price.maxDepth });
export const MAX_ALIASES = int({ name: 'MAX_ALIASES', meaning: 'most aliased fields in a document (`aliases`)', min: 0, max: 100_000, fallback: price.maxAliases });
export const MAX_ESTIMATED_NODES = int({ name: 'MAX_ESTIMATED_NODES', meaning: 'most list items an operation may be priced at (`nodes`)', min: 1, max: 1_000_000_000, fallback: price.maxNodes });
export const MAX_ESTIMATED_UPSTREAM_CALLS = int({
  name: 'MAX_ESTIMATED_UPSTREAM_CALLS',
  meaning: 'most upstream calls an operation may be priced at (`upstreamCalls`)',
  min: 1,
  max: 100_000_000,
  fallback: price.maxUpstreamCalls,
});

export const OPERATION_MAX_UPSTREAM_CALLS = int({
  name: 'OPERATION_MAX_UPSTREAM_CALLS',
  meaning: 'while running: upstream calls one operation may send, retries included (`upstreamCalls`)',
  min: 1,
  max: 10_000_000,
  fallback: budget.upstreamCalls,
});
export const OPERATION_TIMEOUT_MS = int({
  name: 'OPERATION_TIMEOUT_MS',
  meaning: "while running: deadline of one operation (and of each subscription event's execution); its upstream reads are aborted at it (`deadline`)",
  min: 1,
  max: 3_600_000,
  fallback: budget.deadlineMs,
});
export const OPERATION_MAX_NODES = int({ name: 'OPERATION_MAX_NODES', meaning: 'while running: list items one operation may produce (`nodes`)', min: 1, max: 1_000_000_000, fallback: budget.nodes });
export const OPERATION_MAX_RESPONSE_BYTES = int({
  name: 'OPERATION_MAX_RESPONSE_BYTES',
  meaning: 'while running: approximate size of the data one operation may produce (`responseBytes`)',
  min: 1024,
  max: 1024 * 1024 * 1024,
  fallback: budget.responseBytes,
});

export const HEAVY_OPERATION_MIN_CALLS = int({
  name: 'HEAVY_OPERATION_MIN_CALLS',
  meaning: 'estimated upstream calls from which an operation is heavy (the whole-network graph is priced at 2,056; a record by id at 1)',
  min: 1,
  max: 100_000_000,
  fallback: admission.heavyMinCalls,
});
export const HEAVY_OPERATION_CONCURRENCY = int({
  name: 'HEAVY_OPERATION_CONCURRENCY',
  meaning: 'heavy operations running at once, all callers and doors together; the others wait their turn within their deadline',
  min: 1,
  max: 10_000,
  fallback: admission.heavyConcurrency,
  defaultText: "the machine's cores, at least `2`",
});
export const HEAVY_OPERATION_QUEUE_PER_CALLER = int({
  name: 'HEAVY_OPERATION_QUEUE_PER_CALLER',
  meaning: 'heavy operations one caller may have waiting; past it `RATE_LIMITED`',
  min: 1,
  max: 100_000,
  fallback: admission.heavyQueuePerCaller,
});

export const CALLER_UPSTREAM_CALLS_PER_MINUTE = optionalInt({
  name: 'CALLER_UPSTREAM_CALLS_PER_MINUTE',
  meaning:
    'upstream requests one token may cause per minute (queries, polls, provisionings; retries count with their request), in this process, or across every replica with `REDIS_URL`; past it `RATE_LIMITED` with `retryAfter`, before the request is sent',
  min: 1,
  max: 100_000_000,
  defaultText: 'unset: no quota',
});

export const LIMITS = area({
  title: 'Limits',
  intro:
    'Priced before an operation runs: over one of the `MAX_*` maximums it is refused with\n' +
    '`COST_ESTIMATED_TOO_EXPENSIVE` (`extensions.cost.limit` in brackets) and zero upstream calls.\n' +
    'Enforced while it runs: crossing one of the `OPERATION_*` limits answers `OPERATION_BUDGET_EXCEEDED`\n' +
    '(`extensions.limit` in brackets) on the fields not yet resolved. Heavy operations take turns, and\n' +
    'a caller may have a quota of upstream calls. See [Limits and errors](limits-and-errors.md).',
  settings: {
    // The groups the limits code reads (src/limits/limits.ts): the slice is a `Limits` as it is.
    price: {
      maxDocumentBytes: MAX_DOCUMENT_BYTES,
      maxDocumentTokens: MAX_DOCUMENT_TOKENS,
      maxDepth: MAX_DEPTH,
      maxAliases: MAX_ALIASES,
      maxNodes: MAX_ESTIMATED_NODES,
      maxUpstreamCalls: MAX_ESTIMATED_UPSTREAM_CALLS,
    },
    budget: {
      upstreamCalls: OPERATION_MAX_UPSTREAM_CALLS,
      deadlineMs: OPERATION_TIMEOUT_MS,
      nodes: OPERATION_MAX_NODES,
      responseBytes: OPERATION_MAX_RESPONSE_BYTES,
    },
    admission: {
      heavyMinCalls: HEAVY_OPERATION_MIN_CALLS,
      heavyConcurrency: HEAVY_OPERATION_CONCURRENCY,
      heavyQueuePerCaller: HEAVY_OPERATION_QUEUE_PER_CALLER,
    },
    callerUpstreamCallsPerMinute: CALLER_UPSTREAM_CALLS_PER_MINUTE,
  },
});

export type LimitSettings = SettingsOf<typeof LIMITS>;
