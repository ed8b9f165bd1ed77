/** The configured maximums (config.ts reads them from the environment). */
import { availableParallelism } from 'node:os';
import type { AdmissionLimits } from './admission';

/** Refused before running (cost.ts, document-check.ts): COST_ESTIMATED_TOO_EXPENSIVE. */
export interface PriceLimits {
  /** `MAX_DOCUMENT_BYTES` */
  maxDocumentBytes: number;
  /** `MAX_DOCUMENT_TOKENS` */
  maxDocumentTokens: number;
  /** `MAX_DEPTH` */
  maxDepth: number;
  /** `MAX_ALIASES` */
  maxAliases: number;
  /** `MAX_ESTIMATED_NODES` */
  maxNodes: number;
  /** `MAX_ESTIMATED_UPSTREAM_CALLS` */
  maxUpstreamCalls: number;
}

/** Enforced while running (budget.ts): OPERATION_BUDGET_EXCEEDED. */
export interface BudgetLimits {
  /** `OPERATION_MAX_UPSTREAM_CALLS` */
  upstreamCalls: number;
  /** `OPERATION_TIMEOUT_MS` */
  deadlineMs: number;
  /** `OPERATION_MAX_NODES` */
  nodes: number;
  /** `OPERATION_MAX_RESPONSE_BYTES` */
  responseBytes: number;
}

export interface Limits {
  price: PriceLimits;
  budget: BudgetLimits;
  /** Heavy operations take turns (admission.ts). */
  admission: AdmissionLimits;
}

export const DEFAULT_LIMITS: Limits = {
  price: {
    maxDocumentBytes: 64 * 1024,
    maxDocumentTokens: 5000,
    maxDepth: 15,
    maxAliases: 50,
    maxNodes: 2_000_000,
    maxUpstreamCalls: 10_000,
  },
  budget: {
    upstreamCalls: 5000,
    deadlineMs: 30_000,
    nodes: 500_000,
    responseBytes: 32 * 1024 * 1024,
  },
  admission: {
    // One heavy operation per core keeps the cores busy while each waits on upstream calls (measured
    // on 2 cores at 0 and 50 ms per call: 2 slots served the most graphs per second, 1 too few).
    heavyConcurrency: Math.max(2, availableParallelism()),
    heavyMinCalls: 100,
    heavyQueuePerCaller: 64,
  },
};
