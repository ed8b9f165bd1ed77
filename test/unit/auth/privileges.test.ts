import { flattenPrivileges } from '../../../src/upstream/auth/privileges';

describe('flattenPrivileges', () => {
  it('flattens domain → type → action into one entry each, with the leaf as paths', () => {
    const entries = flattenPrivileges({
      network: { endpoint: { read: [['n1', 'e1'], []], update: [] }, service: { read: [[1, true]] } },
      auth: { domain: { read: [] } },
    });
    expect(entries).toEqual([
      { domainCode: 'network', resourceTypeCode: 'endpoint', actionCode: 'read', paths: [['n1', 'e1'], []], value: [['n1', 'e1'], []] },
      { domainCode: 'network', resourceTypeCode: 'endpoint', actionCode: 'update', paths: [], value: [] },
      { domainCode: 'network', resourceTypeCode: 'service', actionCode: 'read', paths: [['1', 'true']], value: [[1, true]] },
      { domainCode: 'auth', resourceTypeCode: 'domain', actionCode: 'read', paths: [], value: [] },
    ]);
  });

  it('keeps unknown leaf shapes raw with null paths, and skips non-map levels without failing', () => {
    const entries = flattenPrivileges({
      network: { endpoint: { read: [{ resourceId: 'r1' }], list: 'ALL', del: null }, broken: 5 },
      other: ['not', 'a', 'map'],
    });
    expect(entries).toEqual([
      { domainCode: 'network', resourceTypeCode: 'endpoint', actionCode: 'read', paths: null, value: [{ resourceId: 'r1' }] },
      { domainCode: 'network', resourceTypeCode: 'endpoint', actionCode: 'list', paths: null, value: 'ALL' },
      { domainCode: 'network', resourceTypeCode: 'endpoint', actionCode: 'del', paths: null, value: null },
    ]);
    expect(flattenPrivileges(null)).toEqual([]);
    expect(flattenPrivileges('x')).toEqual([]);
  });
});
