/**
 * Every rest/v1 mutation against the sandbox (rows in mutation-cases.ts), each checked the same
 * three ways on a freshly reset `tiny` seed:
 * - admin: the payload, and exactly one change request to the expected route with the expected body;
 * - reader: FORBIDDEN, and the upstream state the change would touch is unchanged;
 * - bad input: BAD_USER_INPUT naming the field, and zero upstream calls.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RecordedRequest } from '../../../src/sandbox';
import { dataAt, expectErrorCode, startStack, type GqlResult, type Stack } from '../../helpers/stack';
import { call } from '../sandbox/sandbox-client';
import { factsOf, moreCases, mutationCases, type Facts, type LiveIds, type MutationCase } from './mutation-cases';

let stack: Stack;
// Ids of the `tiny` seed: the same after every reset (the seed is deterministic), read once.
const facts = {} as Facts;
const live: LiveIds = { ca: '', endpointName: '', siteId: '' };
const cases = [...mutationCases, ...moreCases(facts, live)];

beforeAll(async () => {
  stack = await startStack({ seed: 'tiny' });
  Object.assign(facts, fresh());
  Object.assign(live, await liveIds(facts));
});
afterAll(() => stack.close());

/** Resets the seed and the call log; returns the seed's ids. */
function fresh(): Facts {
  stack.sandbox.control.reset();
  stack.sandbox.control.resetCalls();
  return factsOf(stack.sandbox.restFacts());
}

function run(c: MutationCase, vars: Record<string, unknown>, token: string): Promise<GqlResult> {
  const query = `mutation(${c.varDefs}) { ${c.field}(${c.args}) { accepted httpStatus businessKey id ${c.select} } }`;
  return stack.gql(query, vars, { token });
}

/** The change requests (not GETs) the gateway sent since the last reset. */
function changesSent(): RecordedRequest[] {
  return stack.sandbox.control.requests().filter((r) => r.method !== 'GET');
}

async function upstreamState(path: string): Promise<string> {
  const reply = await call(stack.sandbox, 'GET', path);
  return reply.text;
}

async function liveIds(f: Facts): Promise<LiveIds> {
  const first = (json: unknown, key: string): Record<string, unknown> => {
    const list = (json as { _embedded?: Record<string, unknown[]> } | undefined)?._embedded?.[key];
    const item = list?.[0];
    if (typeof item !== 'object' || item === null) throw new Error(`no ${key} in the seed`);
    return item as Record<string, unknown>;
  };
  const cas = await call(stack.sandbox, 'GET', `/rest/v1/networks/${f.networkId}/cas/`);
  const endpoint = await call(stack.sandbox, 'GET', `/rest/v1/networks/${f.networkId}/endpoints/${f.endpointId}`);
  const sites = await call(stack.sandbox, 'GET', `/rest/v1/azureSubscriptions/${f.subscriptionId}/virtualWanSites`);
  return { ca: String(first(cas.json, 'cas')['id']), endpointName: String((endpoint.json as Record<string, unknown>)['name']), siteId: String(first(sites.json, 'virtualWanSites')['id']) };
}

it('has a row for each Mutation field of schema/network-changes.graphql', () => {
  const sdl = readFileSync(join(__dirname, '../../../schema/network-changes.graphql'), 'utf8');
  const fields = [...sdl.slice(sdl.indexOf('extend type Mutation')).matchAll(/^ {2}(\w+)\(/gm)].map((m) => m[1]);
  expect(cases.map((c) => c.field).sort()).toEqual(fields.sort());
});

describe.each(cases.map((c) => [c.field, c] as const))('%s', (_field, c) => {
  beforeEach(() => {
    fresh();
  });
  it('answers its payload after exactly one change request with the expected body', () => asAdmin(c, facts));
  it('gives a reader FORBIDDEN and changes nothing upstream', () => asReader(c, facts));
  it('refuses bad input with BAD_USER_INPUT before any upstream call', () => withBadInput(c, facts));
});

async function asAdmin(c: MutationCase, f: Facts): Promise<void> {
  const vars = c.vars(f);
  const result = await run(c, vars, stack.tokens.admin);
  if (result.body.errors !== undefined) throw new Error(`errors: ${JSON.stringify(result.body.errors)}`);
  const payload = dataAt(result, [c.field]) as Record<string, unknown>;
  expect(typeof payload['accepted']).toBe('boolean');
  expect(payload['accepted']).toBe(payload['httpStatus'] === 202);
  c.payload(payload, vars);
  const sent = changesSent();
  expect(sent.map((r) => `${r.method} ${r.route}`)).toEqual([c.call]);
  c.sent?.(sent[0]?.body, vars);
}

async function asReader(c: MutationCase, f: Facts): Promise<void> {
  const before = await upstreamState(c.state(f));
  const result = await run(c, c.vars(f), stack.tokens.reader);
  expect(expectErrorCode(result, 'FORBIDDEN').path).toEqual([c.field]);
  expect(dataAt(result, [c.field])).toBeNull();
  expect(await upstreamState(c.state(f))).toBe(before);
}

async function withBadInput(c: MutationCase, f: Facts): Promise<void> {
  const result = await run(c, c.bad.vars(f), stack.tokens.admin);
  const error = expectErrorCode(result, 'BAD_USER_INPUT');
  if (c.bad.field !== '') expect(error.extensions?.['field']).toBe(c.bad.field);
  expect(stack.sandbox.control.calls().total).toBe(0);
}
