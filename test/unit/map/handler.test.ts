/** GET /map and its bundle, served by createMapHandler on a bare node:http server. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMapHandler } from '../../../src/server/map';

describe('map handler', () => {
  let server: Server;
  let origin = '';

  beforeAll(async () => {
    const map = createMapHandler({ defaultToken: 'tok</script>en' });
    server = createServer((req, res) => {
      void map(req, res).then((served) => {
        if (!served) res.writeHead(418).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('serves the page with a strict CSP, no-store, and the token escaped in its settings block', async () => {
    const res = await fetch(`${origin}/map`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
    expect(res.headers.get('cache-control')).toBe('no-store');
    const html = await res.text();
    expect(html).toContain('tok\\u003c/script\\u003een');
    expect(html).not.toContain('tok</script>en');
    expect(html).toMatch(/<script src="map\/map\.js\?v=[\w-]{12}"><\/script>/);
  });

  it('serves the bundle (immutable with the page\'s version, 304 on a matching ETag, gzip when asked)', async () => {
    const html = await (await fetch(`${origin}/map`)).text();
    const src = /src="(map\/map\.js\?v=[\w-]+)"/.exec(html)?.[1] ?? '';
    const res = await fetch(`${origin}/${src}`, { headers: { 'accept-encoding': 'gzip' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('cache-control')).toContain('immutable');
    expect((await res.text()).length).toBeGreaterThan(100_000);
    const again = await fetch(`${origin}/map/map.js`, { headers: { 'if-none-match': res.headers.get('etag') ?? '' } });
    expect(again.status).toBe(304);
    const css = await fetch(`${origin}/map/map.css`);
    expect(await css.text()).toContain('__________cytoscape_container');
  });

  it('answers 404 for other files, 405 for other methods, and leaves other paths alone', async () => {
    expect((await fetch(`${origin}/map/../package.json`)).status).not.toBe(200);
    expect((await fetch(`${origin}/map/main.ts`)).status).toBe(404);
    expect((await fetch(`${origin}/map`, { method: 'POST' })).status).toBe(405);
    expect((await fetch(`${origin}/mapping`)).status).toBe(418);
  });
});
