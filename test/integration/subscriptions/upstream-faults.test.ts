/**
 * `workflow` and `resourceStatus` against a scripted upstream (not the sandbox): a failing
 * workflow, a key the upstream learns late, a 401 mid-stream, transient failures below and
 * past the limit, a resource that answers 403 once deleted, an ERROR status. Each poll takes the
 * next answer of its path's script (the last one repeats), so the upstream's own timing decides
 * what the subscriber sees. Where two subscribers must see the same events, the script holds its
 * first answer until both have it (`more`).
 */
import type { ServerResponse } from 'node:http';
import type { RunningGateway } from '../../../src/server';
import { json, startFakeUpstream, type FakeUpstream, type SeenRequest } from '../../helpers/fake-upstream';
import { startTestGateway } from '../../helpers/stack';
import { Clients } from '../../helpers/subscriptions';
import { pause, waitUntil } from '../../helpers/wait';

type Answer = { status: number; body: unknown } | 'html';
/** Answers still to give per path; the last one repeats. */
const scripts = new Map<string, Answer[]>();
const served = new Map<string, number>();
let upstream: FakeUpstream;
let gateway: RunningGateway;
const TOKEN = 'Bearer scripted-token';

function answer(req: SeenRequest, res: ServerResponse): void {
  const path = req.url.split('?')[0] ?? '';
  // The identity check before a subscription's slots are taken: the token belongs to one organization.
  if (path === '/identity/v1/organization' && !scripts.has(path)) return json(res, 200, { id: 'org-scripted', name: 'scripted' });
  const script = scripts.get(path);
  if (!script) return json(res, 404, { status: 404, message: `no script for ${path}` });
  served.set(path, (served.get(path) ?? 0) + 1);
  const next = script.length > 1 ? script.shift() : script[0];
  if (next === undefined || next === 'html') {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<html>proxy says hi</html>');
    return;
  }
  json(res, next.status, next.body);
}

beforeAll(async () => {
  upstream = await startFakeUpstream(answer);
  gateway = await startTestGateway({ upstream: { baseUrl: upstream.url, retryAttempts: 1 }, subscriptions: { pollIntervalMs: 20, pollMaxIntervalMs: 20, pollMaxErrors: 3, pollNotFoundGraceMs: 300 } });
});
afterEach(async () => {
  await clients.disposeAll();
  await waitUntil(() => gateway.pollerStats().pollers === 0, () => 'no pollers');
  scripts.clear();
  served.clear();
});
afterAll(async () => {
  await gateway.close();
  await upstream.close();
});

const clients = new Clients(() => ({ wsUrl: gateway.wsUrl, streamUrl: gateway.streamUrl, tokens: { admin: 'scripted-token' } }));

/** Lets a held script go on with `answers` (after its current one). */
function more(path: string, ...answers: Answer[]): void {
  scripts.get(path)?.push(...answers);
}

const WORKFLOW = 'subscription ($key: String!) { workflow(businessKey: $key) { state done steps { task status } } }';
const STATUS = 'subscription ($kind: ResourceKind!, $networkId: UUID, $id: UUID!) { resourceStatus(kind: $kind, networkId: $networkId, id: $id) { status statusName terminal resource { __typename } } }';

const ok = (body: unknown): Answer => ({ status: 200, body });
const fail = (status: number): Answer => ({ status, body: { status, error: 'scripted', message: `scripted ${status}` } });
/** `/workflow-status/{key}` as the network-management API answers it: an array of `{ businessKey, processDefinitionKey, total, size, data }`. */
const workflow = (key: string, ...statuses: string[]): Answer =>
  ok([{ businessKey: key, processDefinitionKey: 'ScriptedChange', total: statuses.length, size: statuses.length, data: statuses.map((status, i) => ({ task: `Task${i + 1}`, status, calledProcessInstanceId: null, executionStatus: null })) }]);
const network = (id: string, status: number): Answer => ok({ id, name: 'scripted', status, createdAt: '2024-01-01T00:00:00.000+0000', updatedAt: '2024-01-01T00:00:00.000+0000', _links: { self: { href: `${upstream.url}/rest/v1/networks/${id}` } } });

const NETWORK_ID = '11111111-1111-4111-8111-111111111111';

/**
 * A workflow followed over WebSocket and SSE at once: its script holds the first answer (one
 * step InProgress) until both subscribers have it, then goes on with `then`.
 */
async function followOverBoth(key: string, ...then: Answer[]) {
  const path = `/rest/v1/workflow-status/${key}`;
  scripts.set(path, [workflow(key, 'InProgress')]);
  const ws = clients.follow(clients.ws(), WORKFLOW, { key });
  const sse = clients.follow(clients.sse(), WORKFLOW, { key });
  await ws.events(1);
  await sse.events(1);
  more(path, ...then);
  return { path, ws, sse };
}
const states = (log: { values(field: string): unknown[] }): string[] => log.values('workflow').map((w) => (w as { state: string }).state);

describe('workflow', () => {
  it('emits each change of a failing workflow and completes after FAILED, the same over WebSocket and SSE', async () => {
    const key = 'wf-failing';
    const { ws, sse } = await followOverBoth(key, workflow(key, 'InProgress'), workflow(key, 'Completed', 'InProgress'), workflow(key, 'Completed', 'Failed'));
    await ws.ended();
    await sse.ended();
    expect(ws.status).toBe('complete');
    expect(ws.values('workflow')).toEqual([
      { state: 'RUNNING', done: false, steps: [{ task: 'Task1', status: 'InProgress' }] },
      { state: 'RUNNING', done: false, steps: [{ task: 'Task1', status: 'Completed' }, { task: 'Task2', status: 'InProgress' }] },
      { state: 'FAILED', done: true, steps: [{ task: 'Task1', status: 'Completed' }, { task: 'Task2', status: 'Failed' }] },
    ]);
    expect(sse.results).toEqual(ws.results);
    // Both subscribers were served by one poller with the caller's own token.
    expect(upstream.requests.filter((r) => r.url.includes(key)).every((r) => r.headers.authorization === TOKEN)).toBe(true);
  });

  it('waits for a key the upstream does not know yet (404, then an empty list) instead of failing', async () => {
    const key = 'wf-late';
    scripts.set(`/rest/v1/workflow-status/${key}`, [fail(404), ok([]), workflow(key, 'InProgress'), workflow(key, 'Completed')]);
    const log = clients.follow(clients.ws(), WORKFLOW, { key });
    await log.ended();
    expect(states(log)).toEqual(['RUNNING', 'SUCCEEDED']);
  });

  it('ends with UNAUTHENTICATED when the upstream answers 401 mid-stream', async () => {
    const { path, ws, sse } = await followOverBoth('wf-expired', fail(401));
    for (const log of [ws, sse]) {
      await log.ended();
      expect(log.results).toHaveLength(2);
      expect(log.results[1]?.errors?.[0]).toMatchObject({ extensions: { code: 'UNAUTHENTICATED' } });
    }
    // Ended at the first 401: no retry, no poll after it.
    const polls = served.get(path);
    await pause(100);
    expect(served.get(path)).toBe(polls);
    expect(upstream.requests.filter((r) => r.url === path).at(-1)?.headers.authorization).toBe(TOKEN);
  });

  it('retries transient failures without telling the subscriber', async () => {
    const key = 'wf-flaky';
    scripts.set(`/rest/v1/workflow-status/${key}`, [workflow(key, 'InProgress'), fail(503), fail(502), workflow(key, 'Completed')]);
    const log = clients.follow(clients.ws(), WORKFLOW, { key });
    await log.ended();
    expect(states(log)).toEqual(['RUNNING', 'SUCCEEDED']);
  });

  it('ends with the transient error once the limit of failures in a row is reached', async () => {
    const key = 'wf-down';
    scripts.set(`/rest/v1/workflow-status/${key}`, [workflow(key, 'InProgress'), fail(500)]);
    const log = clients.follow(clients.ws(), WORKFLOW, { key });
    await log.ended();
    expect(log.results[1]?.errors?.[0]).toMatchObject({ extensions: { code: 'UPSTREAM_ERROR', upstream: { status: 500 } } });
    expect(served.get(`/rest/v1/workflow-status/${key}`)).toBe(1 + 3);
  });

  it('ends with UPSTREAM_BAD_RESPONSE when a proxy answers HTML', async () => {
    const key = 'wf-proxy';
    scripts.set(`/rest/v1/workflow-status/${key}`, ['html']);
    const log = clients.follow(clients.ws(), WORKFLOW, { key });
    await log.ended();
    expect(log.results[0]?.errors?.[0]).toMatchObject({ extensions: { code: 'UPSTREAM_BAD_RESPONSE' } });
  });
});

describe('resourceStatus', () => {
  it('emits DELETED when a resource that was seen answers 403 (as deleted entities have been seen to)', async () => {
    scripts.set(`/rest/v1/networks/${NETWORK_ID}`, [network(NETWORK_ID, 800), fail(403)]);
    const log = clients.follow(clients.ws(), STATUS, { kind: 'NETWORK', id: NETWORK_ID });
    await log.ended();
    expect(log.status).toBe('complete');
    expect(log.values('resourceStatus')).toEqual([
      { status: 800, statusName: 'DELETING', terminal: false, resource: { __typename: 'Network' } },
      { status: 900, statusName: 'DELETED', terminal: true, resource: null },
    ]);
  });

  it('fails with FORBIDDEN when the resource answers 403 from the start', async () => {
    scripts.set(`/rest/v1/networks/${NETWORK_ID}`, [fail(403)]);
    const log = clients.follow(clients.ws(), STATUS, { kind: 'NETWORK', id: NETWORK_ID });
    await log.ended();
    expect(log.results[0]?.errors?.[0]).toMatchObject({ extensions: { code: 'FORBIDDEN' } });
  });

  it('completes at ERROR (500), a terminal status', async () => {
    scripts.set(`/rest/v1/networks/${NETWORK_ID}`, [network(NETWORK_ID, 100), network(NETWORK_ID, 200), network(NETWORK_ID, 500)]);
    const log = clients.follow(clients.sse(), STATUS, { kind: 'NETWORK', id: NETWORK_ID });
    await log.ended();
    expect(log.values('resourceStatus').map((e) => (e as { statusName: string }).statusName)).toEqual(['NEW', 'PROVISIONING', 'ERROR']);
  });
});
