/**
 * CALLER_UPSTREAM_CALLS_PER_MINUTE in one process: a caller's upstream calls are counted where
 * they are sent; past the quota the next call is not sent and its field answers RATE_LIMITED with
 * retryAfter, while another identity is not held back. The quota is the verified identity's:
 * six tokens of one person share one. Verifying a token (identity/v1) is the gateway's own call,
 * outside the quota, and asked once per token.
 */
import { ADMIN_IDENTITY_ID } from '../../src/sandbox/core/identities';
import { dataAt, expectErrorCode, expectNoErrors, startStack, type Stack } from '../helpers/stack';

let stack: Stack;
// The quota's windows are the clock's minutes: held in the middle of one, the tests never see a
// minute end between them (on the wall clock, one in ~60 runs did).
const MID_MINUTE = Date.UTC(2026, 0, 1, 12, 0, 30);
beforeAll(async () => {
  stack = await startStack({ seed: 'tiny', config: { limits: { callerUpstreamCallsPerMinute: 3 } }, gatewayOptions: { quotaClock: () => MID_MINUTE } });
});
afterAll(() => stack.close());

const QUERY = '{ networks(first: 1) { nodes { id } } }';
const IDENTITY_ROUTE = 'GET /identity/v1/organization';

/** Calls the caller's work sent (the identity checks left out). */
function workCalls(): number {
  const calls = stack.sandbox.control.calls();
  return calls.total - (calls.byRoute[IDENTITY_ROUTE] ?? 0);
}

it('refuses the call past the quota before sending it, and counts each identity apart', async () => {
  stack.sandbox.control.resetCalls();
  for (let i = 0; i < 3; i++) expectNoErrors(await stack.gql(QUERY));
  expect(workCalls()).toBe(3);
  // The demo token was verified when the stack started: no identity check again, however many calls it made.
  expect(stack.sandbox.control.calls().byRoute[IDENTITY_ROUTE]).toBeUndefined();
  const refused = await stack.gql(QUERY);
  const error = expectErrorCode(refused, 'RATE_LIMITED');
  expect(error.extensions).toMatchObject({ limit: 'upstreamCallsPerMinute', scope: 'caller', max: 3, retryAfter: expect.any(Number) });
  expect(workCalls()).toBe(3);
  // The reader is another identity, with a quota of its own.
  expect(dataAt(await stack.gql(QUERY, undefined, { token: stack.tokens.reader }), ['networks', 'nodes'])).toHaveLength(1);
  expect(workCalls()).toBe(4);
});

it('gives six tokens of one person one quota', async () => {
  // Six tokens of the admin identity (a claim apart), none used yet this minute: they share the admin's spent quota.
  const tokens = Array.from({ length: 6 }, (_, n) => stack.sandbox.tokenService.sign({ sub: ADMIN_IDENTITY_ID, n }));
  stack.sandbox.control.resetCalls();
  for (const token of tokens) expectErrorCode(await stack.gql(QUERY, undefined, { token }), 'RATE_LIMITED');
  expect(workCalls()).toBe(0);
  // Each token was verified once with the platform, and named the admin.
  expect(stack.sandbox.control.calls().byRoute[IDENTITY_ROUTE]).toBe(6);
});
