/**
 * The operation stages, each on its own: what it refuses, what it leaves on the run, and that the
 * order declared once is the order they run in.
 */
import { GraphQLError } from 'graphql';
import { HeavyOperationGate } from '../../../src/limits/admission';
import { LimitExceededError } from '../../../src/errors/codes';
import { Cancellation } from '../../../src/core/cancellation';
import { account } from '../../../src/pipeline/stages/account';
import { doorKinds } from '../../../src/pipeline/stages/door-kinds';
import { heavyTurn } from '../../../src/pipeline/stages/heavy-turn';
import { pickOperation } from '../../../src/pipeline/stages/operation';
import { price } from '../../../src/pipeline/stages/price';
import { compose, isStream, type Next, type OperationRun, type Outcome } from '../../../src/pipeline/stages';
import { inProcessContext } from '../../helpers/context';
import { waitUntil } from '../../helpers/wait';
import { preparer, priceLimits, recordDeps, runOf, schema, type Written } from './stage-fixture';

const ok: Next = () => Promise.resolve({ result: { data: { hello: 'hi' } }, requestError: false });

function codesOf(answer: Awaited<ReturnType<Next>>): unknown[] {
  if (isStream(answer)) throw new Error('a stream');
  return (answer.result.errors ?? []).map((error) => error.extensions?.['code']);
}

describe('operation stage', () => {
  const stage = pickOperation(preparer);

  it('picks the operation by name and names it for the log line', () => {
    const run = runOf('query A { hello } mutation B { bump }', { operationName: 'B' });
    expect(stage.admit?.(run)).toBeNull();
    expect(run.operation?.type).toBe('mutation');
    expect(run.record.operationName).toBe('B');
  });

  it('refuses an invalid document and an unknown operation name as the document\'s own refusal', () => {
    const invalid = runOf('{ nope }');
    expect(stage.admit?.(invalid)?.length).toBe(1);
    expect(invalid.documentRefused).toBe(true);
    const unnamed = runOf('query A { hello } query B { hello }', { operationName: 'C' });
    expect(stage.admit?.(unnamed)?.length).toBe(1);
    expect(unnamed.documentRefused).toBe(true);
    expect(unnamed.operation).toBeNull();
  });
});

describe('door kinds stage', () => {
  const picked = (query: string, options: OperationRun['options']): OperationRun => {
    const run = runOf(query, {}, options);
    pickOperation(preparer).admit?.(run);
    return run;
  };

  it('refuses a mutation sent by GET with 405 and Allow: POST, whatever the door', () => {
    const refused = doorKinds.admit?.(picked('mutation { bump }', { door: 'sse', viaGet: true }));
    const error = refused?.[0];
    expect(error).toBeInstanceOf(GraphQLError);
    expect((error as GraphQLError).extensions['http']).toEqual({ status: 405, headers: new Map([['allow', 'POST']]) });
    expect(doorKinds.admit?.(picked('{ hello }', { door: 'http', viaGet: true }))).toBeNull();
  });

  it('refuses a kind the door does not run, saying where subscriptions go', () => {
    const refused = doorKinds.admit?.(picked('subscription { ticks }', { door: 'http', accepts: new Set(['query', 'mutation']) }));
    expect((refused?.[0] as GraphQLError).message).toMatch(/WebSocket or Server-Sent Events/);
  });
});

describe('price stage', () => {
  it('leaves the estimate on the run, and refuses past a maximum before anything runs', () => {
    const run = runOf('{ items(first: 10) }');
    pickOperation(preparer).admit?.(run);
    expect(price(schema, priceLimits).admit?.(run)).toBeNull();
    expect(run.estimate).not.toBeNull();

    const deep = runOf('{ a1: hello a2: hello a3: hello }');
    pickOperation(preparer).admit?.(deep);
    const refused = price(schema, { ...priceLimits, maxAliases: 2 }).admit?.(deep);
    const formatted = recordDeps().formatErrors(refused ?? []).formatted;
    expect(formatted?.[0]?.extensions?.['code']).toBe('COST_ESTIMATED_TOO_EXPENSIVE');
  });
});

describe('account stage', () => {
  it('writes one log line and one metric per answer, with the refusal a later stage threw', async () => {
    const written: Written = { logs: [], observed: [] };
    const run = runOf('{ hello }', {}, { door: 'ws' }, written);
    const thrower: Next = () => Promise.reject(new LimitExceededError('subscriptionsPerConnection', 1, 'one is enough'));
    const answer = await compose([account], thrower)(run);
    expect(codesOf(answer)).toEqual(['RATE_LIMITED']);
    expect(written.observed).toEqual([{ transport: 'ws', errorCodes: ['RATE_LIMITED'] }]);
    expect(written.logs.filter((line) => line['transport'] === 'ws')).toHaveLength(1);
  });

  it('leaves a stream\'s log line to the stream\'s end', async () => {
    const written: Written = { logs: [], observed: [] };
    const stream = (async function* () {
      yield { data: {} };
    })();
    await compose([account], () => Promise.resolve(stream))(runOf('{ hello }', {}, { door: 'sse' }, written));
    expect(written.observed).toEqual([]);
  });
});

describe('compose', () => {
  it('runs admit checks in the declared order and stops at the first refusal', async () => {
    const seen: string[] = [];
    const stage = (name: string, refuse: boolean) => ({ name, admit: () => (seen.push(name), refuse ? [new GraphQLError(name)] : null) });
    const answer = await compose([stage('a', false), stage('b', true), stage('c', false)], ok)(runOf('{ hello }'));
    expect(seen).toEqual(['a', 'b']);
    expect(isStream(answer) ? null : answer.result.errors?.[0]?.message).toBe('b');
  });
});

describe('heavy turn stage', () => {
  const noUpstream = { send: () => Promise.reject(new Error('no upstream in this test')) };
  const heavy = { nodes: 1, upstreamCalls: 100, depth: 1, aliases: 0 };

  it('makes a second heavy operation wait for the first one\'s turn, and a light one not at all', async () => {
    const gate = new HeavyOperationGate({ heavyConcurrency: 1, heavyMinCalls: 10, heavyQueuePerCaller: 4 });
    const ran: string[] = [];
    let finishFirst: () => void = () => undefined;
    const terminal: Next = (run) => {
      ran.push(String(run.params.operationName));
      if (run.params.operationName !== 'first') return ok(run);
      return new Promise<Outcome>((resolve) => {
        finishFirst = () => {
          run.context?.budget.finish();
          resolve(ok(run));
        };
      });
    };
    const start = (name: string, estimate: typeof heavy | null): Promise<Outcome> => {
      const run = runOf(`query ${name} { hello }`, { operationName: name });
      run.context = inProcessContext(noUpstream, { cancellation: new Cancellation() });
      run.estimate = estimate;
      return compose([heavyTurn(gate)], terminal)(run);
    };
    const first = start('first', heavy);
    const second = start('second', heavy);
    const light = start('light', { ...heavy, upstreamCalls: 1 });
    await light;
    await waitUntil(() => ran.includes('first'), 'the first heavy operation to run');
    expect(ran.sort()).toEqual(['first', 'light']);
    finishFirst();
    await Promise.all([first, second]);
    expect(ran.slice(-1)).toEqual(['second']);
  });
});
