import { hrefTarget, parseHalList } from '../../../src/upstream/network/hal';
import { mergeProcesses, parseProcessList, processState } from '../../../src/upstream/network/processes';
import { parseEndpoint, parseEndpointId, parseService, parseVirtualWanSite, opaqueParser } from '../../../src/upstream/network/records';
import { collectionPath, itemPath, resources, type NetworkScopedKind, type ResourceKind } from '../../../src/upstream/network/resources';
import { ShapeError } from '../../../src/errors/shape-error';

const parseId = (v: unknown) => opaqueParser('Thing')(v).id;

describe('parseHalList', () => {
  it('reads _embedded.<plural> and the page object', () => {
    const page = parseHalList({ _embedded: { things: [{ id: 'a' }] }, page: { number: 0, size: 1, totalElements: 3, totalPages: 3 } }, 'things', parseId);
    expect(page).toEqual({ items: ['a'], page: { number: 0, size: 1, totalElements: 3, totalPages: 3 } });
  });
  it('takes a missing _embedded as an empty list, complete without page', () => {
    expect(parseHalList({ _links: {} }, 'things', parseId)).toEqual({ items: [], page: null });
  });
  it('accepts a bare array and a single list under another name', () => {
    expect(parseHalList([{ id: 'a' }], 'things', parseId).items).toEqual(['a']);
    expect(parseHalList({ _embedded: { thingList: [{ id: 'b' }] } }, 'things', parseId).items).toEqual(['b']);
  });
  it('rejects bodies that are not a collection', () => {
    expect(() => parseHalList('text', 'things', parseId)).toThrow(ShapeError);
    expect(() => parseHalList({ _embedded: [] }, 'things', parseId)).toThrow(ShapeError);
    expect(() => parseHalList({ _embedded: { a: [], b: [] } }, 'things', parseId)).toThrow(ShapeError);
    expect(() => parseHalList({ _embedded: { things: [{ name: 'no id' }] } }, 'things', parseId)).toThrow(ShapeError);
  });
});

describe('hrefTarget', () => {
  it('drops URI templates and splits the query', () => {
    expect(hrefTarget('http://x/rest/v1/networks?organizationId=o1{&page,size}')).toEqual({ path: 'http://x/rest/v1/networks', query: { organizationId: 'o1' } });
    expect(hrefTarget('/networks/n1/appWans')).toEqual({ path: '/networks/n1/appWans', query: {} });
  });
});

describe('records', () => {
  it('reads fields when asked, from the body it was given, and serialises only its fields', () => {
    const body: Record<string, unknown> = { id: 'e1', name: 'first', registrationKey: 'k', secretThing: 's', _links: { self: { href: '/e1' } } };
    const e = parseEndpoint(body);
    expect(e.name).toBe('first');
    e.name = 'renamed';
    expect(e.name).toBe('renamed');
    expect(JSON.parse(JSON.stringify(e))).toMatchObject({ id: 'e1', name: 'renamed', endpointType: null, links: { self: '/e1' } });
    expect(JSON.stringify(e)).not.toContain('secretThing');
    expect(() => parseEndpoint({ name: 'no id' })).toThrow(ShapeError);
  });
  it('reads an endpoint id alone with the same checks and errors as the whole record', () => {
    expect(parseEndpointId({ id: 'e1', name: 'x' })).toBe('e1');
    for (const bad of [{ name: 'no id' }, { id: '' }, { id: 7 }, null, 'e1', ['e1']]) {
      const whole = (() => {
        try {
          parseEndpoint(bad);
        } catch (err) {
          return err;
        }
        return null;
      })();
      expect(whole).toBeInstanceOf(ShapeError);
      expect(() => parseEndpointId(bad)).toThrow(ShapeError);
      expect(() => parseEndpointId(bad)).toThrow((whole as ShapeError).message);
    }
  });
  it('reads an endpoint leniently and keeps its links', () => {
    const e = parseEndpoint({ id: 'e1', name: 'gw', status: '300', currentState: 200, endpointType: 'NEWTYPE', registrationAttemptsLeft: null, _links: { network: { href: '/networks/n1' }, bad: 'x' } });
    expect(e).toMatchObject({ id: 'e1', status: 300, currentState: 200, endpointType: 'NEWTYPE', registrationAttemptsLeft: null, geoRegionId: null });
    expect(e.links).toEqual({ network: '/networks/n1' });
  });
  it('reads service intercept ports and typed BGP settings', () => {
    expect(parseService({ id: 's1', interceptPorts: { include: [80, '443-444'], exclude: [] } }).interceptPorts).toEqual({ include: ['80', '443-444'], exclude: [] });
    const site = parseVirtualWanSite({ id: 'v1', bgp: { localPeeringAddress: { ipAddress: '10.0.0.1', asn: 65000 }, neighborPeers: [{ ipAddress: '10.0.0.2', asn: 65001 }], advertiseLocal: true, advertisedPrefixes: ['10.0.0.0/24'] } });
    expect(site.bgp).toMatchObject({ localPeeringAddress: { ipAddress: '10.0.0.1', asn: 65000 }, neighborPeers: [{ asn: 65001 }], advertiseLocal: true, bgpPeerWeight: null });
  });
  it('keeps unknown fields of opaque records as attributes, without HAL', () => {
    const r = opaqueParser('EndpointGroup')({ id: 'g1', name: 'ops', members: 3, _links: { self: { href: '/x' } } });
    expect(r.attributes).toEqual({ id: 'g1', name: 'ops', members: 3 });
  });
});

describe('processes', () => {
  const wf = [{ businessKey: 'k1', processDefinitionKey: 'AppWanUpdate', total: 2, size: 2, data: [{ task: 'a', status: 'Completed' }, { task: 'b', status: 'InProgress' }] }];
  it('reads both process shapes', () => {
    expect(parseProcessList(wf)[0]?.steps).toHaveLength(2);
    expect(parseProcessList([{ businessKey: 'k2', workFlowStatus: [{ task: 'x', status: 'Completed' }] }])[0]?.steps[0]?.task).toBe('x');
    expect(parseProcessList(['k3'])[0]?.businessKey).toBe('k3');
    expect(() => parseProcessList({ nothing: true })).toThrow(ShapeError);
  });
  it.each([
    [[{ status: 'Completed' }, { status: 'InProgress' }], 'RUNNING'],
    [[{ status: 'Completed' }, { status: 'Completed' }], 'SUCCEEDED'],
    [[{ status: 'Completed' }, { status: 'ProvisionFailed' }], 'FAILED'],
    [[{ status: 'InProgress', executionStatus: 'ERROR' }], 'FAILED'],
    [[], 'RUNNING'],
  ])('steps %j -> %s', (steps, state) => {
    expect(processState({ totalSteps: null, steps: steps.map((s) => ({ task: null, calledProcessInstanceId: null, executionStatus: null, ...s })) })).toBe(state);
  });
  it('is still RUNNING while fewer steps are reported than the process total, all of them done', () => {
    const done = { task: null, calledProcessInstanceId: null, executionStatus: null, status: 'Completed' };
    expect(processState({ totalSteps: 3, steps: [done, done] })).toBe('RUNNING');
    expect(processState({ totalSteps: 2, steps: [done, done] })).toBe('SUCCEEDED');
    expect(parseProcessList([{ businessKey: 'k', total: 3, data: [{ status: 'Completed' }] }])[0]?.totalSteps).toBe(3);
  });
  it('merges the entries of one key; null when there is none', () => {
    const merged = mergeProcesses('k1', [...parseProcessList(wf), ...parseProcessList(wf)]);
    expect(merged?.steps).toHaveLength(4);
    expect(mergeProcesses('k1', [])).toBeNull();
  });
});

describe('resource table', () => {
  it('network-scoped kinds are exactly the rows with network scope', () => {
    const scoped: NetworkScopedKind[] = ['endpoint', 'service', 'appWan', 'endpointGroup', 'gatewayCluster', 'certificateAuthority', 'serviceGroup', 'transferNodePool', 'networkControllerHost'];
    const fromTable = (Object.keys(resources) as ResourceKind[]).filter((k) => resources[k].scope === 'network');
    expect(fromTable.sort()).toEqual([...scoped].sort());
  });
  it('builds the network-management API\'s paths', () => {
    expect(itemPath('certificateAuthority', 'c1', 'n1')).toBe('/networks/n1/cas/c1');
    expect(collectionPath('certificateAuthority', 'n1')).toBe('/networks/n1/cas/');
    expect(collectionPath('cloudSubscription')).toBe('/azureSubscriptions');
    expect(() => itemPath('networkControllerHost', 'h1', 'n1')).toThrow();
  });
});
