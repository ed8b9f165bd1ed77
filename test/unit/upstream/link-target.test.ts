/**
 * Links stay home: every target the HTTP layer sends is normalized and must stay under its
 * service's base path on the configured origin, whatever an upstream answer links to.
 */
import { linkTarget, type ServiceBase } from '../../../src/upstream/link-target';

const rest: ServiceBase = { origin: 'http://platform.internal:8080', basePath: '/api/rest/v1', servicePath: '/rest/v1' };
const search: ServiceBase = { origin: 'http://search.internal', basePath: '', servicePath: null };

const sent = (ref: string, base: ServiceBase = rest): string => {
  const t = linkTarget(ref, base);
  if (!t.ok) throw new Error(`${ref} was refused: ${t.reason}`);
  return t.query === '' ? t.pathname : `${t.pathname}?${t.query}`;
};
const refusal = (ref: string, base: ServiceBase = rest): string => {
  const t = linkTarget(ref, base);
  if (t.ok) throw new Error(`${ref} was accepted as ${t.pathname}`);
  return t.reason;
};

describe('linkTarget', () => {
  it.each([
    ['a built path', '/networks/n1', '/api/rest/v1/networks/n1'],
    ['a path without a leading slash', 'networks', '/api/rest/v1/networks'],
    ['a relative link with a query', '/networks?page=2&size=10', '/api/rest/v1/networks?page=2&size=10'],
    ['an absolute link on the configured origin', 'http://platform.internal:8080/api/rest/v1/networks/n1/endpoints?page=1', '/api/rest/v1/networks/n1/endpoints?page=1'],
    ['an absolute link on the public host holding the service path', 'https://public.example/rest/v1/networks/n1', '/api/rest/v1/networks/n1'],
    ['dot segments that stay inside', '/networks/n1/../n2/./endpoints', '/api/rest/v1/networks/n2/endpoints'],
    ['encoded dots that stay inside', '/networks/n1/%2e%2e/n2', '/api/rest/v1/networks/n2'],
    ['double slashes', '/networks//n1', '/api/rest/v1/networks/n1'],
    ['a fragment', '/networks/n1#top', '/api/rest/v1/networks/n1'],
    ['a trailing slash', '/elastic/x/_search/', '/api/rest/v1/elastic/x/_search/'],
    ['a dot inside a segment', '/zfw.events*/_search', '/api/rest/v1/zfw.events*/_search'],
  ])('sends %s', (_what, ref, expected) => {
    expect(sent(ref)).toBe(expected);
  });

  it.each([
    ['`..` out of the service', '/../../admin/secret', 'outside'],
    ['`..` into another service', '/../../core/v2/organizations', 'outside'],
    ['encoded `..` out of the service', '/%2e%2e/%2E%2E/admin/secret', 'outside'],
    ['`..` above the root', '/../../../../etc/passwd', 'above the root'],
    ['an encoded slash', '/networks/..%2F..%2F..%2Fadmin', 'encoded slash'],
    ['an encoded backslash', '/networks/%5c..%5cadmin', 'encoded slash'],
    ['a double-encoded dot segment', '/networks/%252e%252e/admin', 'encoded slash'],
    ['an encoded NUL', '/networks/n1%00.json', 'control character'],
    ['a backslash', '/networks\\..\\..\\admin', 'backslash'],
    ['an absolute link on the configured origin outside the base path', 'http://platform.internal:8080/admin/secret', 'outside'],
    ['an absolute link on the configured origin to another service', 'http://platform.internal:8080/api/core/v2/networks', 'outside'],
    ['an absolute link that climbs out', 'http://platform.internal:8080/api/rest/v1/../../admin', 'outside'],
    ['an absolute link with encoded dots that climbs out', 'http://platform.internal:8080/api/rest/v1/%2e%2e/%2e%2e/admin', 'outside'],
    ['a foreign origin', 'http://attacker.example/steal', 'another origin'],
    ['a foreign origin whose service path is climbed out of', 'http://attacker.example/rest/v1/../admin', 'another origin'],
    ['a scheme-relative link', '//attacker.example/rest', 'another origin'],
    ['a link that is not http', 'file:///etc/passwd', 'not http'],
  ])('refuses %s', (_what, ref, reason) => {
    expect(refusal(ref)).toContain(reason);
  });

  it('holds a service at the origin root to that origin only', () => {
    expect(sent('/zfw.events*/_search', search)).toBe('/zfw.events*/_search');
    expect(sent('http://search.internal/a/../b', search)).toBe('/b');
    expect(refusal('https://public.example/rest/v1/x', search)).toContain('another origin');
    expect(refusal('/%2F/x', search)).toContain('encoded slash');
  });
});
