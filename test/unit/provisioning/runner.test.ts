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
import { runProvisioning, type ProvisioningDeps } from '../../../src/provisioning/runner';

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
