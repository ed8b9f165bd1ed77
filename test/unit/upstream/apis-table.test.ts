/**
 * The table of upstream APIs (src/core/upstream-apis.ts) is the one list: every map derived from it
 * answers for every row (the HTTP layer's bases and credentials, the gates, the cache's change
 * scopes, the cache's keep-or-not), and the fleet's Redis messages refuse a name it does not hold.
 */
import { Cancellation } from '../../../src/core/cancellation';
import { API_GATES, UPSTREAM_APIS, UPSTREAM_SERVICES, upstreamApi, isUpstreamService } from '../../../src/core/upstream-apis';
import { parseNotice } from '../../../src/state/redis/change-bus';
import { parseCredentialWindow, parseOpening } from '../../../src/state/redis/upstream-closures';
import { reachOf, scopesOf, servicePath } from '../../../src/upstream/cache/change-scope';
import { startCall } from '../../../src/upstream/chain/target';
import { DEFAULT_RESILIENCE, UpstreamHealth, apiOf } from '../../../src/upstream/health';
import { createHttpLayer } from '../../../src/upstream/http';

const RETRY = { attempts: 1, baseDelayMs: 1, maxDelayMs: 1, maxRetryAfterMs: 1000 };

describe('the table of upstream APIs', () => {
  it('names each service, each path and each gate once', () => {
    expect(new Set(UPSTREAM_SERVICES).size).toBe(UPSTREAM_APIS.length);
    const paths = UPSTREAM_APIS.map((api) => api.path).filter((path) => path !== null);
    expect(new Set(paths).size).toBe(paths.length);
    expect(API_GATES).toEqual([...new Set(UPSTREAM_APIS.map((api) => api.gate))]);
  });

  it.each(UPSTREAM_APIS.map((api) => [api.name, api] as const))('%s: every derived map has its row', (name, api) => {
    expect(upstreamApi(name)).toBe(api);
    expect(isUpstreamService(name)).toBe(true);
    expect(apiOf(name)).toBe(api.gate);
    expect(API_GATES).toContain(api.gate);
    // The cache: where its paths start, where its reads are filed, what its changes reach.
    expect(servicePath(name, `/prefix${api.path ?? ''}/things/1`)).toBe(api.path === null ? '/prefix/things/1' : '/things/1');
    expect(scopesOf(name, ['things', '1'])).toContain(name);
    const reach = reachOf({ service: name, path: '/things/1' });
    if (api.changes === 'none') expect(reach).toEqual([]);
    else expect(reach.length).toBeGreaterThan(0);
  });

  it('gives every row a base in the HTTP layer, the caller token to those that forward it and the gateway credentials to the others', async () => {
    const layer = createHttpLayer({
      upstreamBaseUrl: 'http://platform.test/api',
      searchUrl: 'http://search.test/es',
      searchCredentials: { username: 'svc', password: 'pw' },
      timeouts: { connectMs: 1000, headersMs: 1000, bodyMs: 1000 },
      retry: RETRY,
      maxConcurrentPerRequest: 1,
    });
    try {
      expect(layer.serviceUrls().map((u) => u.service)).toEqual(UPSTREAM_SERVICES);
      for (const api of UPSTREAM_APIS) {
        if (api.path !== null) expect(layer.serviceUrls()).toContainEqual({ service: api.name, url: `http://platform.test/api${api.path}/` });
      }
    } finally {
      await layer.close();
    }
    const bases = new Map(UPSTREAM_SERVICES.map((service) => [service, { origin: 'http://up.test', basePath: '', servicePath: null }] as const));
    for (const api of UPSTREAM_APIS) {
      const call = startCall({ bases, searchAuthorization: 'Basic own' }, { service: api.name, method: 'GET', path: '/x' }, { options: { signal: new Cancellation(), authorization: 'Bearer caller' }, spendQuota: null, credentialKey: () => 'hashed' });
      expect([api.name, call.authorization]).toEqual([api.name, api.forwardsToken ? 'Bearer caller' : 'Basic own']);
    }
  });

  it('keeps one gate per API in the health of the platform', () => {
    const health = new UpstreamHealth({ ...DEFAULT_RESILIENCE, maxWindowMs: 1000 });
    expect(health.view().map((v) => v.api)).toEqual(API_GATES);
  });
});

describe("the fleet's Redis messages name only the table's APIs", () => {
  const notice = (service: string): string => JSON.stringify({ from: 'other', service, path: '/networks/n1' });

  it('a change notice is heard for every service of the table, and refused for any other name', () => {
    for (const service of UPSTREAM_SERVICES) expect(parseNotice(notice(service), 'me')).toEqual({ service, path: '/networks/n1' });
    for (const name of ['rest-v9', 'rest/v1', 'REST-V1', '']) expect(parseNotice(notice(name), 'me')).toBeNull();
  });

  it('an opening is heard for every gate of the table, and refused for any other name', () => {
    const opening = (api: string): string => JSON.stringify({ api, reason: 'failures', ms: 500, from: 'other' });
    for (const api of API_GATES) expect(parseOpening(opening(api), API_GATES)).toEqual({ api, reason: 'failures', ms: 500, from: 'other' });
    for (const name of ['rest/v9', 'rest-v1', '']) expect(parseOpening(opening(name), API_GATES)).toBeNull();
  });

  it("a credential window is heard for every gate with a key the HTTP layer makes, and refused for another API or key", () => {
    const window = (api: string, credential: string): string => JSON.stringify({ api, credential, ms: 500, from: 'other' });
    const hashed = 'a'.repeat(32);
    for (const api of API_GATES) expect(parseCredentialWindow(window(api, hashed), API_GATES)).toEqual({ api, credential: hashed, ms: 500, from: 'other' });
    expect(parseCredentialWindow(window('rest/v9', hashed), API_GATES)).toBeNull();
    // The gateway's own credentials go by their API's name; a token-forwarding API's name is no key.
    for (const api of UPSTREAM_APIS) {
      const heard = parseCredentialWindow(window(api.gate, api.name), API_GATES);
      if (api.forwardsToken) expect(heard).toBeNull();
      else expect(heard?.credential).toBe(api.name);
    }
    expect(parseCredentialWindow(window('rest/v1', 'Bearer secret'), API_GATES)).toBeNull();
  });
});
