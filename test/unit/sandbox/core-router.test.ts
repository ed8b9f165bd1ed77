import { Router } from '../../../src/sandbox/core/router';
import type { SandboxRoute } from '../../../src/sandbox/core/types';

const r = (method: SandboxRoute['method'], template: string): SandboxRoute => ({ method, template, auth: 'none', handle: () => ({ status: 200 }) });

describe('sandbox router', () => {
  const router = new Router([
    r('GET', '/rest/v1/organizations/{organizationId}'),
    r('POST', '/rest/v1/organizations/{organizationId}/networks'),
    r('GET', '/rest/v1/organizations/billing-accounts/{billingAccountId}'),
    r('GET', '/rest/v1/network-groups/'),
    r('GET', '/rest/v1/networks/{networkId}/cas/'),
    r('POST', '/rest/v1/networks/{networkId}/cas'),
  ]);

  it('matches templates, extracting and decoding parameters', () => {
    const m = router.match('GET', '/rest/v1/organizations/a%2Fb');
    expect(m).toEqual(expect.objectContaining({ kind: 'found', params: { organizationId: 'a/b' } }));
  });

  it('prefers literal segments over placeholders', () => {
    const m = router.match('GET', '/rest/v1/organizations/billing-accounts/42');
    expect(m.kind === 'found' && m.route.template).toBe('/rest/v1/organizations/billing-accounts/{billingAccountId}');
    expect(m.kind === 'found' && m.params).toEqual({ billingAccountId: '42' });
  });

  it('ignores trailing slashes on both sides', () => {
    expect(router.match('GET', '/rest/v1/network-groups').kind).toBe('found');
    expect(router.match('GET', '/rest/v1/networks/n1/cas').kind).toBe('found');
    expect(router.match('POST', '/rest/v1/networks/n1/cas/').kind).toBe('found');
  });

  it('reports the allowed methods for a known path, and not-found otherwise', () => {
    expect(router.match('DELETE', '/rest/v1/networks/n1/cas')).toEqual({ kind: 'wrong-method', allowed: ['GET', 'POST'] });
    expect(router.match('GET', '/rest/v1/networks/n1/cas/x/y')).toEqual({ kind: 'not-found' });
    expect(router.match('GET', '/rest/v1/organizations/%E0%A4%A')).toEqual({ kind: 'not-found' });
  });
});
