/**
 * Prometheus counters per GraphQL operation: by operation name and outcome, and operations
 * refused or stopped by a limit. Operation names come from clients, so the label takes its values
 * from a set fixed at start-up, never from what callers send: the operations of the trusted
 * documents manifest (when one is configured) and those of the gateway's own clients (the network
 * map page, the benchmark). Any other name counts as `other`, an anonymous operation as `-`.
 */
import { Kind, parse } from 'graphql';
import { Counter, type Registry } from 'prom-client';
import type { RequestFacts, Transport } from './request-log';

/**
 * The named operations the gateway's own clients send: the network map page (web/map) and the
 * benchmark's queries (bench/queries). test/unit/server/operation-metrics.test.ts keeps it complete.
 */
export const OWN_OPERATION_NAMES: readonly string[] = [
  'mapNetworks',
  'networkMap',
  'mapAddService',
  'mapAuthorizeEndpoint',
  'mapCreateService',
  'mapNetworkChanges',
  'mapWorkflow',
  'authTree',
  'endpointDetail',
  'networkGraph',
  'networkList',
  'topTalkers',
  'v2Reach',
];

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

/** The operation names of some documents (a trusted documents manifest's); documents that do not parse name none. */
export function operationNamesOf(documents: Iterable<string>): string[] {
  const names: string[] = [];
  for (const text of documents) {
    try {
      for (const definition of parse(text, { noLocation: true }).definitions) {
        if (definition.kind === Kind.OPERATION_DEFINITION && definition.name) names.push(definition.name.value);
      }
    } catch {
      // Not a document: it cannot run either.
    }
  }
  return names;
}

/** `labelled`: the operation names that keep their own label (see the top of this file). */
export function createOperationMetrics(registry: Registry, labelled: Iterable<string> = OWN_OPERATION_NAMES): OperationMetrics {
  const operations = new Counter({
    name: 'netgraph_graphql_operations_total',
    help: 'GraphQL operations, by transport, operation name (the trusted documents\' and the gateway\'s own clients\' names; `other` for any other, `-` for anonymous) and outcome.',
    labelNames: ['transport', 'operation', 'outcome'] as const,
    registers: [registry],
  });
  const limited = new Counter({
    name: 'netgraph_operations_limited_total',
    help: 'Operations refused before running (COST_ESTIMATED_TOO_EXPENSIVE) or stopped while running (OPERATION_BUDGET_EXCEEDED), by limit.',
    labelNames: ['code', 'limit'] as const,
    registers: [registry],
  });
  const names = new Set(labelled);
  const label = (name: string | null): string => (name === null ? '-' : names.has(name) ? name : 'other');
  return {
    observe(transport, facts) {
      operations.inc({ transport, operation: label(facts.operationName), outcome: outcomeOf(facts.errorCodes) });
      for (const { code, limit } of facts.limits) limited.inc({ code, limit });
    },
  };
}
