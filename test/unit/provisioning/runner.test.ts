/**
 * The provisioning runner against an upstream whose 202 answers carry no body at all (the
 * contract does not show them): ids are found by name in the list the create went to, and the
 * run still reports every step. Also: a step whose resource ends in ERROR stops the run.
 */
import { randomUUID } from 'node:crypto';
import { createNetworkLoaders } from '../../../src/upstream/network/loaders';
import type { HttpClient, UpstreamRequest, UpstreamResponse } from '../../../src/upstream/http-types';
import { planProvisioning } from '../../../src/resolvers/provisioning/plan';
import type { ProvisioningRecord } from '../../../src/provisioning/records';
import { HANDOVER, runProvisioning, type ProvisioningDeps } from '../../../src/provisioning/runner';

/** Creates answer 202 with an empty body; lists answer what was created there, by name. */
function bodilessUpstream(): HttpClient & { sent: string[] } {
  const collections = new Map<string, Array<{ id: string; name: string }>>();
  const sent: string[] = [];
  const answer = (status: number, body: unknown): UpstreamResponse => ({ status, headers: {}, body, text: body === null ? '' : JSON.stringify(body) });
  return {
    sent,
    async send(request: UpstreamRequest) {
      const path = request.path.replace(/\/$/, '');
      sent.push(`${request.method} ${path}`);
      if (request.method === 'POST') {
        const body = request.json as { name?: string } | undefined;
        if (body?.name !== undefined) collections.set(path, [...(collections.get(path) ?? []), { id: randomUUID(), name: body.name }]);
        return answer(202, null);
      }
      return answer(200, { _embedded: { items: collections.get(path) ?? [] } });
    },
  };
}

const input = {
  network: { name: 'n' },
  hostedGateway: { name: 'gw' },
  service: { name: 's', serviceClass: 'CS' as const, networkIp: '10.0.0.1' },
  bridgeGateway: { name: 'br' },
  clients: [{ name: 'c1' }],
  appWanName: 'a',
};

function run(upstream: HttpClient, finalStatus: (kind: string) => string): Promise<ProvisioningRecord> {
  const planned = planProvisioning(input);
  const record: ProvisioningRecord = {
    id: 'p', state: 'RUNNING', steps: planned.map((p) => p.record), networkId: null, appWanId: null, error: null, rollbackOnFailure: false, startedAt: '', finishedAt: null,
  };
  const deps: ProvisioningDeps = {
    loaders: () => createNetworkLoaders(upstream, { batching: true }),
    untilStatus: async (target) => finalStatus(target.kind),
    untilWorkflow: async () => 'SUCCEEDED',
  };
  const handle = { record, change: (edit: (r: ProvisioningRecord) => void) => edit(record), checkpoint: () => Promise.resolve() };
  return runProvisioning(handle, planned.map((p) => p.action), deps, { signal: new AbortController().signal, stepTimeoutMs: 1000 }).then(() => record);
}

it('finds the ids of bodiless 202 answers by name and finishes every step', async () => {
  const upstream = bodilessUpstream();
  const record = await run(upstream, () => 'PROVISIONED');
  expect(record.state).toBe('SUCCEEDED');
  expect(record.steps.map((s) => [s.task, s.state, s.resourceId !== null])).toEqual([
    ['network', 'DONE', true],
    ['hostedGateway', 'DONE', true],
    ['service', 'DONE', true],
    ['bridgeGateway', 'DONE', true],
    ['client', 'DONE', true],
    ['appWan', 'DONE', true],
    ['authorizeEndpoints', 'DONE', true],
    ['authorizeServices', 'DONE', true],
  ]);
  // The service names the hosted gateway found by name as its terminator.
  expect(upstream.sent.filter((s) => s.startsWith('POST'))).toHaveLength(8);
});

it('stops at a resource that ends in ERROR and says so on that step', async () => {
  const record = await run(bodilessUpstream(), (kind) => (kind === 'SERVICE' ? 'ERROR' : 'PROVISIONED'));
  expect(record.state).toBe('FAILED');
  expect(record.steps.map((s) => s.state)).toEqual(['DONE', 'DONE', 'FAILED', 'PENDING', 'PENDING', 'PENDING', 'PENDING', 'PENDING']);
  expect(record.steps[2]?.error).toMatchObject({ code: 'RESOURCE_ERROR', message: expect.stringMatching(/ERROR/) });
});

describe('resuming a run another replica started', () => {
  /** The record as a replica left it when it died: the network done, the hosted gateway's create sent but its answer never recorded. */
  async function leftBehind(upstream: ReturnType<typeof bodilessUpstream>) {
    const planned = planProvisioning(input);
    const record: ProvisioningRecord = {
      id: 'p', state: 'RUNNING', steps: planned.map((p) => p.record), networkId: null, appWanId: null, error: null, rollbackOnFailure: false, startedAt: '', finishedAt: null,
    };
    const loaders = createNetworkLoaders(upstream, { batching: true });
    await upstream.send({ service: 'rest-v1', method: 'POST', path: '/networks', json: { name: 'n' } });
    const [network] = await loaders.all('network');
    Object.assign(record.steps[0] ?? {}, { state: 'DONE', resourceId: network?.id, created: true, changeSent: true });
    record.networkId = network?.id ?? null;
    await upstream.send({ service: 'rest-v1', method: 'POST', path: `/networks/${network?.id}/endpoints`, json: { name: 'gw' } });
    Object.assign(record.steps[1] ?? {}, { state: 'RUNNING', changeSent: true });
    return { planned, record };
  }

  it('settles a create that may have been sent by reading it by name, and sends every other create once', async () => {
    const upstream = bodilessUpstream();
    const { planned, record } = await leftBehind(upstream);
    const sentBefore = upstream.sent.length;
    const deps: ProvisioningDeps = {
      loaders: () => createNetworkLoaders(upstream, { batching: true }),
      untilStatus: async () => 'PROVISIONED',
      untilWorkflow: async () => 'SUCCEEDED',
    };
    const handle = { record, change: (edit: (r: ProvisioningRecord) => void) => edit(record), checkpoint: () => Promise.resolve() };
    await runProvisioning(handle, planned.map((p) => p.action), deps, { signal: new AbortController().signal, stepTimeoutMs: 1000 });
    expect(record.state).toBe('SUCCEEDED');
    const posts = upstream.sent.slice(sentBefore).filter((s) => s.startsWith('POST'));
    // No second network and no second hosted gateway: service, bridge, client, AppWAN and its two member changes.
    expect(posts.map((s) => s.replace(/[0-9a-f-]{36}/g, '{id}'))).toEqual([
      'POST /networks/{id}/services',
      'POST /networks/{id}/endpoints',
      'POST /networks/{id}/endpoints',
      'POST /networks/{id}/appWans',
      'POST /networks/{id}/appWans/{id}/endpoints',
      'POST /networks/{id}/appWans/{id}/services',
    ]);
    expect(record.steps[1]).toMatchObject({ state: 'DONE', created: true, resourceId: expect.any(String) });
  });

  it('records nothing when handed over: the step stays as it was for the next replica', async () => {
    const upstream = bodilessUpstream();
    const { planned, record } = await leftBehind(upstream);
    const controller = new AbortController();
    let waiting: () => void = () => undefined;
    const stepWaiting = new Promise<void>((resolve) => (waiting = resolve));
    const deps: ProvisioningDeps = {
      loaders: () => createNetworkLoaders(upstream, { batching: true }),
      untilStatus: () => {
        waiting();
        return new Promise((_resolve, reject) => controller.signal.addEventListener('abort', () => reject(new Error('stopped'))));
      },
      untilWorkflow: async () => 'SUCCEEDED',
    };
    const handle = { record, change: (edit: (r: ProvisioningRecord) => void) => edit(record), checkpoint: () => Promise.resolve() };
    const running = runProvisioning(handle, planned.map((p) => p.action), deps, { signal: controller.signal, stepTimeoutMs: 1000 });
    // Handed over while the step waits on the upstream.
    await stepWaiting;
    controller.abort(HANDOVER);
    await expect(running).rejects.toThrow();
    expect(record.state).toBe('RUNNING');
    expect(record.steps[1]).toMatchObject({ state: 'RUNNING', error: null });
  });
});
