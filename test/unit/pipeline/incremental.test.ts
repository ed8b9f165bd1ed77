/**
 * Incremental delivery in the pipeline: which operations use `@defer`/`@stream` (found once per
 * prepared operation), the `incremental` stage's choice (parts only on a door that delivers them, a
 * deferred mutation refused), and the execute stage's executor: graphql-jit for everything that
 * defers nothing, the incremental executor's parts otherwise.
 */
import { makeExecutableSchema } from '@graphql-tools/schema';
import { GraphQLError, type FormattedExecutionResult } from 'graphql';
import pino from 'pino';
import { backgroundCaller } from '../../../src/core/caller';
import { Cancellation } from '../../../src/core/cancellation';
import { DEFAULT_LIMITS } from '../../../src/limits/limits';
import { createExecutor } from '../../../src/pipeline/execute';
import { createErrorFormatter } from '../../../src/pipeline/format';
import { isIncremental } from '../../../src/pipeline/incremental';
import { createPreparer } from '../../../src/pipeline/prepare';
import { OperationRecord } from '../../../src/pipeline/record';
import { compose, isStream, startRun, type OperationRun, type Outcome } from '../../../src/pipeline/stages';
import { execute } from '../../../src/pipeline/stages/execute';
import { incremental } from '../../../src/pipeline/stages/incremental';
import { operationContext } from '../../../src/pipeline/stages/context';
import { pickOperation } from '../../../src/pipeline/stages/operation';
import type { AnswerStream, GraphQLParams, RunOptions } from '../../../src/pipeline/types';
import { inProcessContext } from '../../helpers/context';
import { waitUntil } from '../../helpers/wait';

/** The slow field answers when the test says so. */
let releaseSlow: (value: string) => void = () => undefined;
let slowStarted = 0;

const schema = makeExecutableSchema({
  typeDefs: `
    directive @defer(if: Boolean! = true, label: String) on FRAGMENT_SPREAD | INLINE_FRAGMENT
    directive @stream(if: Boolean! = true, label: String, initialCount: Int = 0) on FIELD
    type Query { fast: String, slow: String, broken: String, list: [Int] }
    type Mutation { bump: Int }
  `,
  resolvers: {
    Query: {
      fast: () => 'fast',
      slow: () => {
        slowStarted += 1;
        return new Promise<string>((resolve) => (releaseSlow = resolve));
      },
      broken: () => Promise.reject(new GraphQLError('it broke', { extensions: { code: 'UPSTREAM_ERROR' } })),
      list: () => [1, 2, 3],
    },
    Mutation: { bump: () => 1 },
  },
});
const preparer = createPreparer({ schema, documentLimits: { maxBytes: 64 * 1024, maxTokens: 5000 }, trusted: null });
const noUpstream = { send: () => Promise.reject(new Error('no upstream in this test')) };
const recordDeps = { formatErrors: createErrorFormatter({ development: false }), logger: pino({ level: 'silent' }), metrics: { observe: () => undefined }, tracer: null };

function runOf(query: string, params: Omit<GraphQLParams, 'query'> = {}, options: RunOptions = { door: 'http' }): OperationRun {
  const caller = backgroundCaller(undefined, null);
  const run = startRun(preparer.document(query), { query, ...params }, caller, options, new OperationRecord(recordDeps, caller, { ...options, cancellation: new Cancellation() }));
  run.context = inProcessContext(noUpstream, { cancellation: run.record.cancellation });
  return run;
}

function runner() {
  const executor = createExecutor(schema, 'jit');
  return { executor, run: compose([pickOperation(preparer), incremental], execute(executor, DEFAULT_LIMITS.price, schema)) };
}

async function all(stream: AnswerStream): Promise<FormattedExecutionResult[]> {
  const parts: FormattedExecutionResult[] = [];
  for await (const part of stream) parts.push(part);
  return parts;
}

function single(outcome: Outcome): FormattedExecutionResult {
  if (isStream(outcome)) throw new Error('a stream');
  return outcome.result;
}

const DEFERRED = '{ fast ... @defer(label: "later") { slow } }';

describe('which operations defer', () => {
  const useOf = (query: string) => {
    const op = preparer.operation(preparer.document(query), null);
    if (op instanceof GraphQLError) throw op;
    return op.incremental;
  };

  it('finds @defer and @stream in the operation and in the fragments it spreads, and their `if`', () => {
    expect(useOf('{ fast slow }').kind).toBe('never');
    expect(useOf(DEFERRED).kind).toBe('always');
    expect(useOf('{ list @stream(initialCount: 1) }').kind).toBe('always');
    expect(useOf('{ ...F } fragment F on Query { fast ... @defer { slow } }').kind).toBe('always');
    expect(useOf('{ fast ... @defer(if: false) { slow } }').kind).toBe('never');
    const byVariable = useOf('query ($d: Boolean! = false) { fast ... @defer(if: $d) { slow } }');
    expect(isIncremental(byVariable, {})).toBe(false);
    expect(isIncremental(byVariable, { d: true })).toBe(true);
    expect(isIncremental(byVariable, { d: false })).toBe(false);
  });
});

describe('incremental and execute stages', () => {
  it('runs an operation that defers nothing on graphql-jit, on every door', async () => {
    const { executor, run } = runner();
    const answer = single(await run(runOf('{ fast }', {}, { door: 'ws', incremental: true })));
    expect(answer).toEqual({ data: { fast: 'fast' } });
    expect(executor.stats()).toEqual({ compiled: 1, fallback: 0 });
  });

  it('answers the whole result in one answer, the directives ignored, where the door takes no parts', async () => {
    const { executor, run } = runner();
    const started = slowStarted;
    const pending = run(runOf(DEFERRED, {}, { door: 'mcp' }));
    await waitForSlow(started);
    releaseSlow('slow');
    expect(single(await pending)).toEqual({ data: { fast: 'fast', slow: 'slow' } });
    expect(executor.stats().compiled).toBe(1);
  });

  it('answers parts on a door that takes them: the first before the slow field resolved, then the rest with its path and label', async () => {
    const { executor, run } = runner();
    const started = slowStarted;
    const outcome = await run(runOf(DEFERRED, {}, { door: 'http', incremental: true }));
    if (!isStream(outcome)) throw new Error('expected parts: ' + JSON.stringify(outcome));
    expect(outcome.incremental).toBe(true);
    const first = await outcome.next();
    expect(first.value).toEqual({ data: { fast: 'fast' }, hasNext: true });
    await waitForSlow(started);
    releaseSlow('slow');
    expect(await all(outcome)).toEqual([{ incremental: [{ data: { slow: 'slow' }, path: [], label: 'later' }], hasNext: false }]);
    expect(executor.stats()).toEqual({ compiled: 0, fallback: 0 });
  });

  it('streams a list: the first items with the rest of the answer, the others as items with their path', async () => {
    const { run } = runner();
    const outcome = await run(runOf('{ fast list @stream(initialCount: 1, label: "rest") }', {}, { door: 'ws', incremental: true }));
    if (!isStream(outcome)) throw new Error('expected parts');
    const parts = (await all(outcome)) as Array<FormattedExecutionResult & { incremental?: Array<{ items?: unknown[]; path?: unknown[] }> }>;
    expect(parts[0]).toEqual({ data: { fast: 'fast', list: [1] }, hasNext: true });
    const items = parts.slice(1).flatMap((part) => part.incremental ?? []);
    expect(items.flatMap((item) => item.items ?? [])).toEqual([2, 3]);
    expect(items[0]).toMatchObject({ path: ['list', 1], label: 'rest' });
    expect(parts.at(-1)).toMatchObject({ hasNext: false });
  });

  it('follows a variable `if`: false runs on graphql-jit', async () => {
    const { executor, run } = runner();
    const query = 'query ($d: Boolean!) { fast ... @defer(if: $d) { list } }';
    expect(single(await run(runOf(query, { variables: { d: false } }, { door: 'ws', incremental: true })))).toEqual({ data: { fast: 'fast', list: [1, 2, 3] } });
    expect(executor.stats().compiled).toBe(1);
    expect(isStream(await run(runOf(query, { variables: { d: true } }, { door: 'ws', incremental: true })))).toBe(true);
  });

  it('puts a deferred fragment\'s errors in its own part, with their path', async () => {
    const { run } = runner();
    const outcome = await run(runOf('{ fast ... @defer { broken } }', {}, { door: 'sse', incremental: true }));
    if (!isStream(outcome)) throw new Error('expected parts: ' + JSON.stringify(outcome));
    const parts = await all(outcome);
    expect(parts[0]).toEqual({ data: { fast: 'fast' }, hasNext: true });
    expect(parts[1]).toMatchObject({ incremental: [{ data: { broken: null }, path: [], errors: [{ message: 'it broke', path: ['broken'], extensions: { code: 'UPSTREAM_ERROR' } }] }], hasNext: false });
  });

  it('refuses a mutation with an active @defer before anything runs, on every door', async () => {
    const { run } = runner();
    for (const options of [{ door: 'http' }, { door: 'ws', incremental: true }] satisfies RunOptions[]) {
      const answer = single(await run(runOf('mutation { ... @defer { bump } }', {}, options)));
      expect(answer.errors?.[0]?.extensions?.['code']).toBe('BAD_REQUEST');
      expect(answer.data).toBeUndefined();
    }
    expect(single(await run(runOf('mutation ($d: Boolean!) { ... @defer(if: $d) { bump } }', { variables: { d: false } })))).toEqual({ data: { bump: 1 } });
  });

  it('cancels the operation when its client leaves before the last part', async () => {
    const { run } = runner();
    const started = slowStarted;
    const runOfIt = runOf(DEFERRED, {}, { door: 'ws', incremental: true });
    const outcome = await run(runOfIt);
    if (!isStream(outcome)) throw new Error('expected parts: ' + JSON.stringify(outcome));
    await outcome.next();
    await waitForSlow(started);
    await outcome.return(undefined);
    expect(runOfIt.record.cancellation.aborted).toBe(true);
    expect(await outcome.next()).toEqual({ done: true, value: undefined });
  });
});

/** Until the slow field has started since `before` (its count then): its `releaseSlow` is the one to call. */
async function waitForSlow(before: number): Promise<void> {
  await waitUntil(() => slowStarted > before, 'the slow field to start');
}

describe('the context of an answer in parts', () => {
  it('is kept (budget running, heavy slot held) until the last part was read, then given back once', async () => {
    const released: string[] = [];
    let slotGiven = 0;
    const maker = {
      createContext: (_caller: unknown, cancellation: Cancellation) => {
        const context = inProcessContext(noUpstream, { cancellation });
        context.budget.holdSlot(() => (slotGiven += 1));
        return context;
      },
      releaseContext: () => released.push('context'),
    };
    const executor = createExecutor(schema, 'jit');
    const started = slowStarted;
    const run = runOf(DEFERRED, {}, { door: 'ws', incremental: true });
    run.context = null;
    const outcome = await compose([pickOperation(preparer), incremental, operationContext(maker)], execute(executor, DEFAULT_LIMITS.price, schema))(run);
    if (!isStream(outcome)) throw new Error('expected parts');
    await outcome.next();
    expect(released).toEqual([]);
    expect(slotGiven).toBe(0);
    await waitForSlow(started);
    releaseSlow('slow');
    await all(outcome);
    expect(released).toEqual(['context']);
    expect(slotGiven).toBe(1);
  });
});
