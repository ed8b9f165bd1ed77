/**
 * The idempotency stage on its own: a mutation with a key runs once per identity and key, its
 * repeats get the first result marked as a replay with no run; the key with other variables is
 * refused 422; a bad key is BAD_USER_INPUT before anything runs; queries and keyless mutations
 * pass untouched; a first run that sent no change and answered no data lets its key go.
 */
import pino from 'pino';
import { backgroundCaller, type Identity } from '../../../src/core/caller';
import { createIdempotency } from '../../../src/idempotency/idempotency';
import { OperationRecord } from '../../../src/pipeline/record';
import { account } from '../../../src/pipeline/stages/account';
import { idempotency } from '../../../src/pipeline/stages/idempotency';
import { pickOperation } from '../../../src/pipeline/stages/operation';
import { compose, isStream, startRun, type Next, type Outcome } from '../../../src/pipeline/stages';
import type { Answer, GraphQLParams } from '../../../src/pipeline/types';
import { MemoryIdempotencyStore } from '../../../src/state/memory/idempotency';
import { buildSchema } from 'graphql';
import { createPreparer } from '../../../src/pipeline/prepare';
import { recordDeps } from './stage-fixture';

const preparer = createPreparer({ schema: buildSchema('type Query { hello: String } type Mutation { bump(n: Int): Int }'), documentLimits: { maxBytes: 64 * 1024, maxTokens: 5000 }, trusted: null });

const LIMITS = { maxKeysPerIdentity: 10, maxKeys: 100, maxBytesPerIdentity: 1 << 20, maxBytes: 1 << 22, maxResultBytes: 1 << 16 };
const quiet = pino({ level: 'silent' });

function answerOf(outcome: Outcome): Answer {
  if (isStream(outcome)) throw new Error('a stream');
  return outcome;
}

function setup(options: { waitMs?: number } = {}) {
  const store = createIdempotency({ store: new MemoryIdempotencyStore(), leaseMs: 5000, waitMs: options.waitMs ?? 2000, ttlMs: 60_000, limits: LIMITS });
  let runs = 0;
  /** What the stages after it do: counts runs, "sends" a change when asked, answers the variable back. */
  let behave: (params: GraphQLParams, calls: { count: number; changes?: number }) => Promise<Answer> = (params, calls) => {
    calls.count += 1;
    calls.changes = (calls.changes ?? 0) + 1;
    return Promise.resolve({ result: { data: { bump: (params.variables?.['n'] as number | undefined) ?? runs } }, requestError: false });
  };
  const terminal: Next = (run) => {
    runs += 1;
    return behave(run.params, run.record.calls);
  };
  // The token's keyed hash as the verifier makes it: here, the token's text itself.
  const pipeline = compose([account, pickOperation(preparer), idempotency(store, (authorization) => `hash(${authorization})`, quiet)], terminal);
  const send = (query: string, params: Omit<GraphQLParams, 'query'>, identity: Identity | null = { key: 'id-a', organizationId: 'o', subject: null }, token = 't') => {
    const caller = backgroundCaller(identity ? `Bearer ${token}` : undefined, identity);
    const options = { door: 'http' as const };
    return pipeline(startRun(preparer.document(query), { query, ...params }, caller, options, new OperationRecord(recordDeps(), caller, options))).then(answerOf);
  };
  return {
    send,
    runs: () => runs,
    behaveAs(next: typeof behave) {
      behave = next;
    },
  };
}

const MUTATION = 'mutation B($n: Int) { bump(n: $n) }';
const key = (idempotencyKey: unknown) => ({ extensions: { idempotencyKey } });

describe('idempotency stage', () => {
  it('runs a keyed mutation once and replays its result, marked, to the same request', async () => {
    const s = setup();
    const first = await s.send(MUTATION, { variables: { n: 7 }, ...key('k-1') });
    const again = await s.send(MUTATION, { variables: { n: 7 }, ...key('k-1') });
    expect(s.runs()).toBe(1);
    expect(first.result).toEqual({ data: { bump: 7 } });
    expect(again.result).toEqual({ data: { bump: 7 }, extensions: { idempotentReplayed: true } });
    expect(again.headers).toEqual([['idempotent-replayed', 'true']]);
  });

  it('gives the kept result only to the token that made it: another token of the identity learns the outcome exists, not its data', async () => {
    const s = setup();
    await s.send(MUTATION, { variables: { n: 7 }, ...key('k-cred') }, undefined, 'wide-token');
    const narrower = await s.send(MUTATION, { variables: { n: 7 }, ...key('k-cred') }, undefined, 'narrow-token');
    expect(s.runs()).toBe(1);
    expect(narrower.result.data).toBeUndefined();
    expect(narrower.result.errors?.[0]?.extensions).toMatchObject({ code: 'IDEMPOTENCY_OUTCOME_UNKNOWN', reason: 'otherCredential' });
    expect(narrower.status).toBe(409);
    // The first token still gets its result.
    const same = await s.send(MUTATION, { variables: { n: 7 }, ...key('k-cred') }, undefined, 'wide-token');
    expect(same.result).toEqual({ data: { bump: 7 }, extensions: { idempotentReplayed: true } });
    expect(s.runs()).toBe(1);
  });

  it('makes a concurrent repeat wait for the first and get its result: one run', async () => {
    const s = setup();
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    s.behaveAs(async (params, calls) => {
      calls.count += 1;
      calls.changes = 1;
      await held;
      return { result: { data: { bump: 1 } }, requestError: false };
    });
    const answers = [1, 2, 3, 4, 5].map(() => s.send(MUTATION, { variables: { n: 1 }, ...key('k-2') }));
    release();
    const all = await Promise.all(answers);
    expect(s.runs()).toBe(1);
    expect(all.filter((a) => a.result.extensions?.['idempotentReplayed'] === true)).toHaveLength(4);
    expect(new Set(all.map((a) => JSON.stringify(a.result.data)))).toEqual(new Set(['{"bump":1}']));
  });

  it('refuses the key with other variables (IDEMPOTENCY_KEY_REUSED, 422) without running', async () => {
    const s = setup();
    await s.send(MUTATION, { variables: { n: 1 }, ...key('k-3') });
    const reused = await s.send(MUTATION, { variables: { n: 2 }, ...key('k-3') });
    expect(s.runs()).toBe(1);
    expect(reused.result.errors?.[0]?.extensions?.['code']).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(reused.status).toBe(422);
  });

  it('keeps another identity\'s key its own', async () => {
    const s = setup();
    await s.send(MUTATION, { variables: { n: 1 }, ...key('k-4') });
    const other = await s.send(MUTATION, { variables: { n: 1 }, ...key('k-4') }, { key: 'id-b', organizationId: 'o', subject: null });
    expect(s.runs()).toBe(2);
    expect(other.result.extensions).toBeUndefined();
  });

  it('refuses a bad key (too long, a control character, not a string) as BAD_USER_INPUT before running', async () => {
    const s = setup();
    for (const bad of ['x'.repeat(256), 'a\u0007b', 42]) {
      const answer = await s.send(MUTATION, { variables: { n: 1 }, ...key(bad) });
      expect(answer.result.errors?.[0]?.extensions?.['code']).toBe('BAD_USER_INPUT');
    }
    expect(s.runs()).toBe(0);
  });

  it('refuses a key from a caller without a token (UNAUTHENTICATED), without running', async () => {
    const s = setup();
    const answer = await s.send(MUTATION, { variables: { n: 1 }, ...key('k-5') }, null);
    expect(answer.result.errors?.[0]?.extensions?.['code']).toBe('UNAUTHENTICATED');
    expect(s.runs()).toBe(0);
  });

  it('ignores the key on queries and runs keyless mutations every time', async () => {
    const s = setup();
    s.behaveAs(() => Promise.resolve({ result: { data: { hello: 'hi' } }, requestError: false }));
    await s.send('{ hello }', key('x'.repeat(300)));
    await s.send('{ hello }', key('x'.repeat(300)));
    await s.send(MUTATION, { variables: { n: 1 } });
    await s.send(MUTATION, { variables: { n: 1 } });
    expect(s.runs()).toBe(4);
  });

  it('lets the key go when the first run sent no change and answered no data, so a retry runs', async () => {
    const s = setup();
    s.behaveAs(() => Promise.resolve({ result: { data: { bump: null }, errors: [{ message: 'platform away', extensions: { code: 'UPSTREAM_UNAVAILABLE' } }] }, requestError: false }));
    await s.send(MUTATION, { variables: { n: 1 }, ...key('k-6') });
    s.behaveAs((_params, calls) => {
      calls.changes = 1;
      return Promise.resolve({ result: { data: { bump: 1 } }, requestError: false });
    });
    const retried = await s.send(MUTATION, { variables: { n: 1 }, ...key('k-6') });
    expect(s.runs()).toBe(2);
    expect(retried.result).toEqual({ data: { bump: 1 } });
  });

  it('keeps a failed change that was sent: its repeat gets the same error, no second run', async () => {
    const s = setup();
    s.behaveAs((_params, calls) => {
      calls.changes = 1;
      return Promise.resolve({ result: { data: { bump: null }, errors: [{ message: 'conflict', extensions: { code: 'CONFLICT' } }] }, requestError: false });
    });
    await s.send(MUTATION, { variables: { n: 1 }, ...key('k-7') });
    const again = await s.send(MUTATION, { variables: { n: 1 }, ...key('k-7') });
    expect(s.runs()).toBe(1);
    expect(again.result.errors?.[0]?.extensions?.['code']).toBe('CONFLICT');
    expect(again.result.extensions).toEqual({ idempotentReplayed: true });
  });

  it('answers a repeat that waited past IDEMPOTENCY_WAIT_MS with IN_PROGRESS (409, Retry-After), no second run', async () => {
    const s = setup({ waitMs: 0 });
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    s.behaveAs(async () => {
      await held;
      return { result: { data: { bump: 1 } }, requestError: false };
    });
    const first = s.send(MUTATION, { variables: { n: 1 }, ...key('k-8') });
    const repeat = await s.send(MUTATION, { variables: { n: 1 }, ...key('k-8') });
    release();
    await first;
    expect(s.runs()).toBe(1);
    expect(repeat.result.errors?.[0]?.extensions?.['code']).toBe('IDEMPOTENCY_KEY_IN_PROGRESS');
    expect(repeat.status).toBe(409);
    expect(repeat.headers).toEqual([['retry-after', '1']]);
  });
});
