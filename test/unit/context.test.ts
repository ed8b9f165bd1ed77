/**
 * The per-request context (src/context.ts): loaders are made on first use, cache within the
 * request, and are let go when the request is answered (`releaseContext`), so whatever still holds
 * the context afterwards (Apollo's gateway path, until V8's next full collection) holds no records.
 */
import { releaseContext } from '../../src/context';
import type { HttpClient, UpstreamRequest, UpstreamResponse } from '../../src/upstream/http-types';
import { inProcessContext } from '../helpers/context';

const NET = '11111111-1111-4111-8111-111111111111';
const network = { id: NET, name: 'net', status: 300 };

class OneNetwork implements HttpClient {
  readonly sent: string[] = [];

  async send(req: UpstreamRequest): Promise<UpstreamResponse> {
    this.sent.push(`${req.method} ${req.path}`);
    return { status: 200, headers: {}, body: network, text: JSON.stringify(network) };
  }
}

describe('request context', () => {
  it('reads a record once per request, and again after the request is released', async () => {
    const http = new OneNetwork();
    const ctx = inProcessContext(http);
    const before = ctx.loaders.network;
    expect((await before.byId('network', NET)).name).toBe('net');
    expect((await ctx.loaders.network.byId('network', NET)).name).toBe('net');
    expect(http.sent).toEqual([`GET /networks/${NET}`]);

    releaseContext(ctx);
    // The released loaders (and the record cached in them) are no longer reachable from the context.
    expect(ctx.loaders.network).not.toBe(before);
    expect((await ctx.loaders.network.byId('network', NET)).name).toBe('net');
    expect(http.sent).toEqual([`GET /networks/${NET}`, `GET /networks/${NET}`]);
  });

  it("releases every area's loaders", () => {
    const ctx = inProcessContext(new OneNetwork());
    const areas = { auth: ctx.loaders.auth, coreV2: ctx.loaders.coreV2, search: ctx.loaders.search };
    releaseContext(ctx);
    expect(ctx.loaders.auth).not.toBe(areas.auth);
    expect(ctx.loaders.coreV2).not.toBe(areas.coreV2);
    expect(ctx.loaders.search).not.toBe(areas.search);
  });
});
