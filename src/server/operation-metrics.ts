/**
 * Prometheus counters per GraphQL operation: by operation name and outcome, and operations
 * refused or stopped by a limit. Operation names come from clients, so the label is bounded: the
 * first MAX_NAMES distinct well-formed names keep theirs, the rest count as `other`.
 */
import { Counter, type Registry } from 'prom-client';
import type { RequestFacts, Transport } from './request-log';

const MAX_NAMES = 200;

export type Outcome = 'ok' | 'errors' | 'refused' | 'budget_exceeded' | 'bad_request';

export interface OperationMetrics {
  observe(transport: Transport, facts: RequestFacts): void;
}

export function outcomeOf(codes: readonly string[]): Outcome {
  if (codes.length === 0) return 'ok';
  if (codes.includes('COST_ESTIMATED_TOO_EXPENSIVE')) return 'refused';
  if (codes.includes('OPERATION_BUDGET_EXCEEDED')) return 'budget_exceeded';
  if (codes.includes('BAD_REQUEST')) return 'bad_request';
  return 'errors';
}

export function createOperationMetrics(registry: Registry): OperationMetrics {
  const operations = new Counter({
    name: 'netgraph_graphql_operations_total',
    help: 'GraphQL operations, by transport, operation name (bounded; `other` past 200 names, `-` for anonymous) and outcome.',
    labelNames: ['transport', 'operation', 'outcome'] as const,
    registers: [registry],
  });
  const limited = new Counter({
    name: 'netgraph_operations_limited_total',
    help: 'Operations refused before running (COST_ESTIMATED_TOO_EXPENSIVE) or stopped while running (OPERATION_BUDGET_EXCEEDED), by limit.',
    labelNames: ['code', 'limit'] as const,
    registers: [registry],
  });
  const names = new Set<string>();
  const label = (name: string | null): string => {
    if (name === null) return '-';
    if (names.has(name)) return name;
    if (names.size >= MAX_NAMES || !/^\w{1,64}$/.test(name)) return 'other';
    names.add(name);
    return name;
  };
  return {
    observe(transport, facts) {
      operations.inc({ transport, operation: label(facts.operationName), outcome: outcomeOf(facts.errorCodes) });
      for (const { code, limit } of facts.limits) limited.inc({ code, limit });
    },
  };
}
