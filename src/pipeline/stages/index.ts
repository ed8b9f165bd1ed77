/**
 * The operation pipeline's stages: every operation passes these, in this order, declared here only.
 *
 *   account ─► operation ─► door kinds ─► incremental ─► price ─► subscribe ─► idempotency ─► context ─► heavy turn ─► execute
 *
 * `admit` stages (operation, door kinds, incremental, price) check before anything runs, and `check()` runs
 * exactly those; `wrap` stages surround the ones after them. A subscription leaves at `subscribe`;
 * queries and mutations end at `execute`. `idempotency` comes after the refusals of price and
 * subscription (they answer first) and before `context` (a replay makes none). A new operation-level concern is a stage file and one
 * line below.
 */
import type { GraphQLSchema } from 'graphql';
import type { Logger } from 'pino';
import type { Idempotency } from '../../idempotency/idempotency';
import type { HeavyOperationGate } from '../../limits/admission';
import type { PriceLimits } from '../../limits/limits';
import type { Tracer } from '../../tracing';
import type { Executor } from '../execute';
import type { ErrorFormatter } from '../format';
import type { OperationMetrics } from '../operation-metrics';
import type { Preparer } from '../prepare';
import { account } from './account';
import { operationContext } from './context';
import { doorKinds } from './door-kinds';
import { execute } from './execute';
import { heavyTurn } from './heavy-turn';
import { idempotency } from './idempotency';
import { incremental } from './incremental';
import { pickOperation } from './operation';
import { price } from './price';
import { compose, type Next, type Stage } from './stage';
import { subscribe, type SubscribeDeps } from './subscribe';

export { checkAll, compose, isStream, refusal, startRun, type Next, type OperationRun, type Outcome, type Stage } from './stage';
export { costReport } from './execute';
export { verifyCaller } from './verify-caller';

/** What the stages are built from: one object, so a stage that needs more adds a field here. */
export interface StageDeps extends SubscribeDeps {
  schema: GraphQLSchema;
  preparer: Preparer;
  executor: Executor;
  priceLimits: PriceLimits;
  gate: HeavyOperationGate;
  formatErrors: ErrorFormatter;
  logger: Logger;
  metrics: OperationMetrics;
  tracer: Tracer | null;
  /** Idempotency keys of mutations (src/idempotency over this process's or the fleet's store). */
  idempotency: Idempotency;
}

/** The stages before execution, outermost first. */
const STAGES: ReadonlyArray<(deps: StageDeps) => Stage> = [
  () => account,
  (deps) => pickOperation(deps.preparer),
  () => doorKinds,
  () => incremental,
  (deps) => price(deps.schema, deps.priceLimits),
  subscribe,
  (deps) => idempotency(deps.idempotency, deps.logger),
  operationContext,
  (deps) => heavyTurn(deps.gate),
];

export interface Stages {
  /** Names in order, `execute` last (for tests and docs). */
  readonly names: readonly string[];
  /** The whole way of one operation. */
  readonly run: Next;
  /** The stages that check before anything runs (`admit`), in order. */
  readonly checks: readonly Stage[];
}

export function createStages(deps: StageDeps): Stages {
  const stages = STAGES.map((make) => make(deps));
  return {
    names: [...stages.map((stage) => stage.name), 'execute'],
    run: compose(stages, execute(deps.executor, deps.priceLimits, deps.schema)),
    checks: stages.filter((stage) => stage.admit !== undefined),
  };
}
