/**
 * CALLER_UPSTREAM_CALLS_PER_MINUTE in one process: a credential's upstream calls are counted
 * where they are sent; past the quota the next call is not sent and its field answers
 * RATE_LIMITED with retryAfter, while another credential is not held back.
 */
import { dataAt, expectErrorCode, expectNoErrors, startStack, testConfig, type Stack } from '../helpers/stack';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ seed: 'tiny', config: { fleet: { ...testConfig().fleet, callerUpstreamCallsPerMinute: 3 } } });
});
afterAll(() => stack.close());

const QUERY = '{ networks(first: 1) { nodes { id } } }';

it('refuses the call past the quota before sending it, and counts each credential apart', async () => {
  stack.sandbox.control.resetCalls();
  for (let i = 0; i < 3; i++) expectNoErrors(await stack.gql(QUERY));
  expect(stack.sandbox.control.calls().total).toBe(3);
  const refused = await stack.gql(QUERY);
  const error = expectErrorCode(refused, 'RATE_LIMITED');
  expect(error.extensions).toMatchObject({ limit: 'upstreamCallsPerMinute', scope: 'caller', max: 3, retryAfter: expect.any(Number) });
  expect(stack.sandbox.control.calls().total).toBe(3);
  // The reader's token has a quota of its own.
  expect(dataAt(await stack.gql(QUERY, undefined, { token: stack.tokens.reader }), ['networks', 'nodes'])).toHaveLength(1);
  expect(stack.sandbox.control.calls().total).toBe(4);
});
