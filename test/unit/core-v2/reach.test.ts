/** The management API v2's role-attribute rules (reach.ts): matching, and who can reach what. */
import { matches, reachableBy, reachableServices, routeBetween, type NetworkFacts } from '../../../src/resolvers/core-v2/reach';
import type { EdgeRouterPolicyRecord, EdgeRouterRecord, V2AppWanRecord, V2EndpointRecord, V2ServiceRecord } from '../../../src/upstream/core-v2/records';

const audit = { status: 'PROVISIONED', createdBy: null, createdAt: null, updatedAt: null, links: {}, networkId: 'n' };
const endpoint = (id: string, attributes: string[]): V2EndpointRecord => ({ ...audit, id, name: id, attributes, enrollmentMethod: null, jwt: null });
const router = (id: string, attributes: string[]): EdgeRouterRecord => ({ ...audit, id, name: id, attributes, dataCenterId: null, linkListener: null });
const policy = (id: string, endpointAttributes: string[], edgeRouterAttributes: string[]): EdgeRouterPolicyRecord => ({ ...audit, id, name: id, endpointAttributes, edgeRouterAttributes });
const appWan = (id: string, endpointAttributes: string[], serviceAttributes: string[]): V2AppWanRecord => ({ ...audit, id, name: id, endpointAttributes, serviceAttributes });
const service = (id: string, attributes: string[], model: Record<string, unknown>, modelType = 'TunnelerToEndpoint'): V2ServiceRecord => ({ ...audit, id, name: id, attributes, encryptionRequired: true, modelType, model });

describe('matches', () => {
  const target = { name: 'laptop', attributes: ['#employees', 'sales'] };
  it.each([
    [['#all'], true],
    [['@laptop'], true],
    [['@desktop'], false],
    [['#employees'], true],
    [['#sales'], true], // stored without its '#'
    [['#finance'], false],
    [[], false],
    [['employees'], false],
    [['@'], false],
    [['#'], false],
    [['#finance', '@laptop'], true],
  ])('%j → %s', (selectors, expected) => {
    expect(matches(selectors, target)).toBe(expected);
  });
});

describe('who can reach what', () => {
  const routers = [router('r1', ['#public', '#hosting']), router('r2', ['#public']), router('r3', ['#private'])];
  const facts = (over: Partial<NetworkFacts> = {}): NetworkFacts => ({
    appWans: [appWan('employees-intranet', ['#employees'], ['#intranet'])],
    policies: [policy('all', ['#all'], ['#all'])],
    routers,
    ...over,
  });
  const alice = endpoint('alice', ['#employees']);
  const server = endpoint('server', ['#hosting']);
  const wiki = service('wiki', ['#intranet'], { edgeRouterAttributes: ['#public'], bindEndpointAttributes: ['#hosting'] });
  const crm = service('crm', ['#intranet'], { edgeRouterHosts: [{ edgeRouterId: 'r3' }] }, 'TunnelerToEdgeRouter');

  it('an endpoint reaches a service through a matching AppWAN and a policy giving a router the service allows', () => {
    expect(routeBetween(alice, wiki, facts())).toEqual({ appWans: [facts().appWans[0]], policies: [facts().policies[0]], routers: [routers[0], routers[1]] });
  });

  it('a router-hosted service allows its hosting routers', () => {
    expect(routeBetween(alice, crm, facts())?.routers.map((r) => r.id)).toEqual(['r3']);
  });

  it('each network’s own lists decide, however often the same records were checked before', () => {
    expect(routeBetween(alice, wiki, facts())?.routers.map((r) => r.id)).toEqual(['r1', 'r2']);
    const onlyR2 = routers.slice(1, 2);
    expect(routeBetween(alice, wiki, facts({ routers: onlyR2 }))?.routers.map((r) => r.id)).toEqual(['r2']);
    expect(routeBetween(alice, wiki, facts({ routers: routers.slice(2) }))).toBeNull();
    expect(routeBetween(alice, wiki, facts({ policies: [policy('private-only', ['#all'], ['#private'])] }))).toBeNull();
    expect(routeBetween(alice, wiki, facts())?.policies.map((p) => p.id)).toEqual(['all']);
  });

  it('no AppWAN matching the endpoint: nothing is reachable', () => {
    expect(reachableServices(server, [wiki, crm], facts())).toEqual([]);
  });

  it('attributes that match nothing give nothing', () => {
    const f = facts({ appWans: [appWan('none', ['#nobody'], ['#intranet']), appWan('nothing', ['#employees'], ['#nothing'])] });
    expect(reachableServices(alice, [wiki, crm], f)).toEqual([]);
  });

  it('an AppWAN match without a usable router is not reachable', () => {
    expect(routeBetween(alice, wiki, facts({ policies: [policy('private-only', ['#all'], ['#private'])] }))).toBeNull();
    expect(routeBetween(alice, wiki, facts({ policies: [policy('others', ['#contractors'], ['#all'])] }))).toBeNull();
    expect(routeBetween(alice, wiki, facts({ policies: [] }))).toBeNull();
  });

  it('#all and @name select across the board and by name; every granting AppWAN and policy is listed', () => {
    const f = facts({
      appWans: [appWan('everyone-wiki', ['#all'], ['@wiki']), appWan('employees-intranet', ['#employees'], ['#intranet'])],
      policies: [policy('all', ['#all'], ['#all']), policy('server-r2', ['@server'], ['@r2']), policy('none', ['@server'], ['#private'])],
    });
    const route = routeBetween(server, wiki, f);
    expect(route?.appWans.map((a) => a.id)).toEqual(['everyone-wiki']);
    expect(route?.policies.map((p) => p.id)).toEqual(['all', 'server-r2']);
    expect(reachableServices(server, [wiki, crm], f).map((r) => r.service.id)).toEqual(['wiki']);
    expect(reachableBy(wiki, [alice, server], f).map((r) => [r.endpoint.id, r.appWans.map((a) => a.id)])).toEqual([
      ['alice', ['everyone-wiki', 'employees-intranet']],
      ['server', ['everyone-wiki']],
    ]);
  });
});
