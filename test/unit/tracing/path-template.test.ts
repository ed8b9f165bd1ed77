import { pathTemplate } from '../../../src/tracing/path-template';

describe('upstream paths as span templates', () => {
  it.each([
    ['/rest/v1/networks', '/rest/v1/networks'],
    ['/rest/v1/networks/0b7c1d3e-9f4a-4c2b-8e6f-1a2b3c4d5e6f/endpoints', '/rest/v1/networks/{id}/endpoints'],
    ['/core/v2/identities/aB3xY9qZ', '/core/v2/identities/{id}'],
    ['/auth/v1/users/42', '/auth/v1/users/{id}'],
    ['/rest/v1/networkgroups/my%20group/endpoints', '/rest/v1/networkgroups/{id}/endpoints'],
    ['/prefix/auth/v1/superUsers/', '/prefix/auth/v1/superUsers/'],
    ['/ziti-events-*/_search', '/{id}/_search'],
  ])('%s → %s', (path, template) => {
    expect(pathTemplate(path)).toBe(template);
  });
});
