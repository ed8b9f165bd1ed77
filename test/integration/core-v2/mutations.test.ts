/**
 * Every core/v2 create through the gateway (the management API v2's six creates), each checked three ways on
 * a freshly reset `tiny` seed: admin (payload, exactly one POST with the expected body), reader
 * (FORBIDDEN, nothing created), bad input (BAD_USER_INPUT naming the field, zero upstream calls).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { dataAt, expectErrorCode, expectNoErrors, startStack, type GqlResult, type Stack } from '../../helpers/stack';
import { ManualClock } from '../../../src/sandbox';
import { at, call, list, str } from '../sandbox/sandbox-client';

let stack: Stack;
const f = { networkId: '', routerId: '' };

beforeAll(async () => {
  // A clock that only moves when told: the new resource stays NEW and its execution RUNNING however slow the machine.
  stack = await startStack({ seed: 'tiny', clock: new ManualClock(1000) });
  fresh();
  const networks = await call(stack.sandbox, 'GET', '/core/v2/networks');
  f.networkId = str(at(list(networks.json, 'networkList')[0], 'id'));
  const routers = await call(stack.sandbox, 'GET', `/core/v2/edge-routers?networkId=${f.networkId}`);
  f.routerId = str(at(list(routers.json, 'edgeRouterList')[0], 'id'));
});
afterAll(() => stack.close());

function fresh(): void {
  stack.sandbox.control.reset();
  stack.sandbox.control.resetCalls();
}

type Vars = Record<string, unknown>;
interface Case {
  field: string;
  type: string;
  /** Payload field holding the resource. */
  resource: string;
  plural: string;
  listKey: string;
  input(): Vars;
  /** Bad inputs and the field each must name. */
  bad: Array<[Vars, string]>;
}

const egress = { protocol: 'tcp', host: '10.0.0.9', port: 443 };
const ingress = { host: 'app.internal', port: 443 };

/** Stands for the seed's network id in bad inputs (named in test titles before the seed is read). */
const NET = 'the-network';

const cases: Case[] = [
  {
    field: 'createV2Network', type: 'CreateV2NetworkInput', resource: 'v2Network', plural: 'networks', listKey: 'networkList',
    input: () => ({ name: 'v2-new', locationCode: 'us-east-1' }),
    bad: [[{ name: ' ' }, 'input.name']],
  },
  {
    field: 'createEdgeRouter', type: 'CreateEdgeRouterInput', resource: 'edgeRouter', plural: 'edge-routers', listKey: 'edgeRouterList',
    input: () => ({ networkId: f.networkId, name: 'router-new', attributes: ['#public', '#eu'], linkListener: true }),
    bad: [
      [{ networkId: NET, name: 'r', attributes: ['#all'] }, 'input.attributes[0]'],
      [{ networkId: NET, name: 'r', attributes: ['#ok', 'public'] }, 'input.attributes[1]'],
      [{ networkId: NET, name: 'r', attributes: ['@router-1'] }, 'input.attributes[0]'],
    ],
  },
  {
    field: 'createEdgeRouterPolicy', type: 'CreateEdgeRouterPolicyInput', resource: 'edgeRouterPolicy', plural: 'edge-router-policies', listKey: 'edgeRouterPolicyList',
    input: () => ({ networkId: f.networkId, name: 'policy-new', endpointAttributes: ['#employees', '@endpoint-1'], edgeRouterAttributes: ['#all'] }),
    bad: [
      [{ networkId: NET, name: 'p', endpointAttributes: ['employees'] }, 'input.endpointAttributes[0]'],
      [{ networkId: NET, name: 'p', edgeRouterAttributes: ['#all', '@'] }, 'input.edgeRouterAttributes[1]'],
      [{ networkId: '', name: 'p' }, 'input.networkId'],
    ],
  },
  {
    field: 'createV2Service', type: 'CreateV2ServiceInput', resource: 'v2Service', plural: 'services', listKey: 'serviceList',
    input: () => ({ networkId: f.networkId, name: 'svc-new', attributes: ['#web'], modelType: 'TunnelerToEndpoint', model: { clientIngress: ingress, edgeRouterAttributes: ['#all'], bindEndpointAttributes: ['#hosting'], serverEgress: egress } }),
    bad: [
      [{ networkId: NET, name: 's', modelType: 'TunnelerToEndpoint', model: { clientIngress: ingress, serverEgress: egress } }, 'input.model.bindEndpointAttributes'],
      [{ networkId: NET, name: 's', modelType: 'TunnelerToEndpoint', model: { clientIngress: ingress, bindEndpointAttributes: ['#h'] } }, 'input.model.serverEgress'],
      [{ networkId: NET, name: 's', modelType: 'TunnelerToEndpoint', model: { clientIngress: ingress, bindEndpointAttributes: ['#h'], serverEgress: egress, edgeRouterHosts: [{ edgeRouterId: 'x', serverEgress: egress }] } }, 'input.model.edgeRouterHosts'],
      [{ networkId: NET, name: 's', modelType: 'TunnelerToEdgeRouter', model: { clientIngress: ingress } }, 'input.model.edgeRouterHosts'],
      [{ networkId: NET, name: 's', modelType: 'TunnelerToEdgeRouter', model: { clientIngress: ingress, serverEgress: egress, edgeRouterHosts: [{ edgeRouterId: 'x', serverEgress: egress }] } }, 'input.model.serverEgress'],
      [{ networkId: NET, name: 's', modelType: 'TunnelerToEdgeRouter', model: { clientIngress: { host: 'a', port: 70000 }, edgeRouterHosts: [{ edgeRouterId: 'x', serverEgress: egress }] } }, 'input.model.clientIngress.port'],
      [{ networkId: NET, name: 's', modelType: 'TunnelerToEdgeRouter', model: { clientIngress: ingress, edgeRouterHosts: [{ edgeRouterId: 'x', serverEgress: { ...egress, port: 0 } }] } }, 'input.model.edgeRouterHosts[0].serverEgress.port'],
      [{ networkId: NET, name: 's', attributes: ['#all'], modelType: 'TunnelerToEdgeRouter', model: { clientIngress: ingress, edgeRouterHosts: [{ edgeRouterId: 'x', serverEgress: egress }] } }, 'input.attributes[0]'],
    ],
  },
  {
    field: 'createV2AppWan', type: 'CreateV2AppWanInput', resource: 'v2AppWan', plural: 'app-wans', listKey: 'appWanList',
    input: () => ({ networkId: f.networkId, name: 'appwan-new', serviceAttributes: ['#web', '@wiki'], endpointAttributes: ['#all'] }),
    bad: [[{ networkId: NET, name: 'a', serviceAttributes: ['# web'] }, 'input.serviceAttributes[0]']],
  },
  {
    field: 'createV2Endpoint', type: 'CreateV2EndpointInput', resource: 'v2Endpoint', plural: 'endpoints', listKey: 'endpointList',
    input: () => ({ networkId: f.networkId, name: 'endpoint-new', attributes: ['#employees'], enrollmentMethod: { ott: true } }),
    bad: [[{ networkId: NET, name: 'e', attributes: ['#all'] }, 'input.attributes[0]']],
  },
];

function run(c: Case, input: Vars, token: string): Promise<GqlResult> {
  const query = `mutation($input: ${c.type}!) { ${c.field}(input: $input) { accepted httpStatus id executionId execution { id status state done resourceId } ${c.resource} { id name status } } }`;
  return stack.gql(query, { input }, { token });
}

it('has a row for each Mutation field of schema/core-v2.graphql', () => {
  const sdl = readFileSync(join(__dirname, '../../../schema/core-v2.graphql'), 'utf8');
  const fields = [...sdl.slice(sdl.indexOf('extend type Mutation')).matchAll(/^ {2}(\w+)\(/gm)].map((m) => m[1]);
  expect(cases.map((c) => c.field).sort()).toEqual(fields.sort());
});

describe.each(cases.map((c) => [c.field, c] as const))('%s', (_field, c) => {
  beforeEach(() => fresh());

  it('answers 202 with the new resource and its execution, after exactly one POST with the input as body', async () => {
    const input = c.input();
    const r = await run(c, input, stack.tokens.admin);
    expectNoErrors(r);
    const p = dataAt(r, [c.field]) as Record<string, unknown>;
    expect(p).toMatchObject({ accepted: true, httpStatus: 202, [c.resource]: { name: input['name'], status: 'NEW' } });
    expect(p['id']).toBe((p[c.resource] as Record<string, unknown>)['id']);
    expect(p['execution']).toMatchObject({ id: p['executionId'], state: 'RUNNING', done: false, resourceId: p['id'] });
    const sent = stack.sandbox.control.requests().filter((q) => q.method !== 'GET');
    expect(sent.map((q) => `${q.method} ${q.route}`)).toEqual([`POST /core/v2/${c.plural}`]);
    expect(sent[0]?.body).toEqual(input);
    const listed = await call(stack.sandbox, 'GET', `/core/v2/${c.plural}?name=${String(input['name'])}`);
    expect(list(listed.json, c.listKey).map((x) => x['id'])).toEqual([p['id']]);
  });

  it('gives a reader FORBIDDEN and creates nothing', async () => {
    const input = c.input();
    const r = await run(c, input, stack.tokens.reader);
    expect(expectErrorCode(r, 'FORBIDDEN').path).toEqual([c.field]);
    const listed = await call(stack.sandbox, 'GET', `/core/v2/${c.plural}?name=${String(input['name'])}`);
    expect(list(listed.json, c.listKey)).toEqual([]);
  });

  it.each(c.bad.map(([input, field]) => [field, input] as const))('refuses bad input (%s) before any upstream call', async (field, input) => {
    const r = await run(c, input['networkId'] === NET ? { ...input, networkId: f.networkId } : input, stack.tokens.admin);
    expect(expectErrorCode(r, 'BAD_USER_INPUT').extensions?.['field']).toBe(field);
    expect(stack.sandbox.control.calls().total).toBe(0);
  });
});

it('creates a TunnelerToEdgeRouter service hosted by a router of the network', async () => {
  fresh();
  const input = { networkId: f.networkId, name: 'crm-2', attributes: ['#crm'], encryptionRequired: false, modelType: 'TunnelerToEdgeRouter', model: { clientIngress: ingress, edgeRouterHosts: [{ edgeRouterId: f.routerId, serverEgress: egress }] } };
  const r = await stack.gql('mutation($input: CreateV2ServiceInput!) { createV2Service(input: $input) { v2Service { modelType encryptionRequired model { edgeRouterHosts { edgeRouter { id } serverEgress { host } } } } } }', { input });
  expectNoErrors(r);
  expect(dataAt(r, ['createV2Service', 'v2Service'])).toEqual({ modelType: 'TunnelerToEdgeRouter', encryptionRequired: false, model: { edgeRouterHosts: [{ edgeRouter: { id: f.routerId }, serverEgress: { host: '10.0.0.9' } }] } });
});

it('refuses an unknown modelType in GraphQL validation, before any call', async () => {
  fresh();
  const r = await stack.gql('mutation { createV2Service(input: { networkId: "n", name: "s", modelType: TunnelerToSdk, model: { clientIngress: { host: "a", port: 1 } } }) { id } }');
  expect(r.body.errors?.length).toBeGreaterThan(0);
  expect(stack.sandbox.control.calls().total).toBe(0);
});
