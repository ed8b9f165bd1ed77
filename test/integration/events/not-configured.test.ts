/**
 * A gateway with an upstream but no search service (not in sandbox mode, `searchUrl` null): the
 * search fields answer NOT_CONFIGURED without any call, and the rest of the response stays
 * (network events go through rest/v1 and still answer).
 */
import { startSandbox, type RunningSandbox } from '../../../src/sandbox';
import type { RunningGateway } from '../../../src/server';
import { dataAt, expectErrorAt, postGraphQL, startTestGateway } from '../../helpers/stack';

let sandbox: RunningSandbox;
let gateway: RunningGateway;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, seed: 'tiny' });
  gateway = await startTestGateway({ upstream: { baseUrl: sandbox.baseUrl, searchUrl: null, searchUsername: undefined, searchPassword: undefined } });
});
afterAll(async () => {
  await gateway.close();
  await sandbox.close();
});

it('answers NOT_CONFIGURED on the search fields only, with no search call', async () => {
  sandbox.control.resetCalls();
  const r = await postGraphQL(gateway.url, '{ topTalkers { from } alerts { totalCount } usage { interval } myOrganization { id } networkEvents(from: "now-30d", first: 1) { totalCount } v2Networks { totalCount } }', undefined, { token: sandbox.tokens.admin });
  for (const field of ['topTalkers', 'alerts', 'usage']) {
    expectErrorAt(r, [field], 'NOT_CONFIGURED');
    expect(dataAt(r, [field])).toBeNull();
  }
  expect(r.body.errors).toHaveLength(3);
  expect(dataAt(r, ['myOrganization', 'id'])).toEqual(expect.any(String));
  expect(Number(dataAt(r, ['networkEvents', 'totalCount']))).toBeGreaterThanOrEqual(0);
  expect(dataAt(r, ['v2Networks', 'totalCount'])).toBe(1);
  expect(sandbox.control.requests().filter((q) => q.path.includes('/search/'))).toEqual([]);
});
