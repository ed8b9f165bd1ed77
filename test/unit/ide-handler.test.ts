import { readFileSync } from 'node:fs';
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { createIdeHandler, type IdeHandlerOptions } from '../../src/server/ide';

interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** The handler on a real socket; anything it does not serve answers 418 so a test can tell. */
async function serve(options: IdeHandlerOptions): Promise<{ server: Server; base: string }> {
  const ide = createIdeHandler(options);
  const server = createServer((req, res) => {
    if (!ide(req, res)) res.writeHead(418).end('not the IDE');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, base: `http://127.0.0.1:${port}` };
}

function send(base: string, path: string, init: { method?: string; headers?: Record<string, string> } = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { method: init.method ?? 'GET', headers: init.headers ?? {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

function packageFile(packageName: string, file: string): Buffer {
  return readFileSync(join(dirname(require.resolve(`${packageName}/package.json`)), file));
}

/** The `src` and `href` URLs of the page, resolved against the page's own URL. */
function assetUrls(html: string, pageUrl: string): URL[] {
  return [...html.matchAll(/(?:src|href)="([^"]+)"/g)]
    .map((m) => m[1] ?? '')
    .filter((u) => !u.startsWith('data:'))
    .map((u) => new URL(u.replace(/&amp;/g, '&'), pageUrl));
}

function configBlock(html: string): unknown {
  const match = /<script type="application\/json" id="netgraph-ide-config">([^]*?)<\/script>/.exec(html);
  if (!match?.[1]) throw new Error('no config block in page');
  return JSON.parse(match[1]);
}

describe('IDE handler', () => {
  let server: Server;
  let base: string;

  beforeAll(async () => {
    ({ server, base } = await serve({ graphqlPath: '/graphql', defaultHeaders: { Authorization: 'Bearer t0k3n' } }));
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  describe('which requests it serves', () => {
    it.each([
      ['a browser navigation to the endpoint', 'GET', '/graphql', BROWSER_ACCEPT, 200],
      ['HEAD from a browser', 'HEAD', '/graphql', BROWSER_ACCEPT, 200],
      ['an API client asking for JSON', 'GET', '/graphql', 'application/graphql-response+json, application/json', 418],
      ['a client with no Accept', 'GET', '/graphql', '', 418],
      ['a browser GET that carries a query (a GraphQL request)', 'GET', '/graphql?query=%7B__typename%7D', BROWSER_ACCEPT, 418],
      ['a POST', 'POST', '/graphql', BROWSER_ACCEPT, 418],
      ['another path', 'GET', '/healthz', BROWSER_ACCEPT, 418],
      ['a path that only starts like the endpoint', 'GET', '/graphqlx', BROWSER_ACCEPT, 418],
      ['an asset', 'GET', '/graphql/ide/graphiql.min.js', '*/*', 200],
      ['an unknown asset name', 'GET', '/graphql/ide/nope.js', '*/*', 404],
      ['a POST to an asset', 'POST', '/graphql/ide/graphiql.min.js', '*/*', 418],
    ])('%s', async (_what, method, path, accept, status) => {
      const reply = await send(base, path, { method, headers: accept ? { accept } : {} });
      expect(reply.status).toBe(status);
    });
  });

  describe('the page', () => {
    it('is uncached HTML under a strict CSP with a fresh style nonce per response', async () => {
      const first = await send(base, '/graphql', { headers: { accept: BROWSER_ACCEPT } });
      const second = await send(base, '/graphql', { headers: { accept: BROWSER_ACCEPT } });
      expect(first.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(first.headers['cache-control']).toBe('no-store');
      expect(first.headers['vary']).toBe('Accept');
      expect(first.headers['x-content-type-options']).toBe('nosniff');

      const csp = String(first.headers['content-security-policy']);
      const directives = new Map(csp.split(/;\s*/).map((d) => [d.split(' ')[0], d.split(' ').slice(1)]));
      expect(directives.get('default-src')).toEqual(["'none'"]);
      expect(directives.get('script-src')).toEqual(["'self'"]);
      expect(directives.get('connect-src')).toEqual(["'self'"]);
      expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
      expect(csp).not.toContain('unsafe-inline');
      expect(csp).not.toContain('unsafe-eval');

      const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
      expect(nonce).toBeDefined();
      expect(configBlock(first.body.toString())).toMatchObject({ styleNonce: nonce });
      expect(String(second.headers['content-security-policy'])).not.toContain(`nonce-${nonce}`);
    });

    it('has no inline script: every executable script is a same-origin file', async () => {
      const html = (await send(base, '/graphql', { headers: { accept: BROWSER_ACCEPT } })).body.toString();
      const scripts = [...html.matchAll(/<script([^>]*)>([^]*?)<\/script>/g)];
      const executable = scripts.filter((m) => !(m[1] ?? '').includes('type="application/json"'));
      expect(executable.length).toBe(5);
      for (const m of executable) {
        expect(m[2]).toBe('');
        expect(m[1]).toMatch(/src="\.\/graphql\/ide\//);
      }
    });

    it('inlines the default headers and a default query for the boot script', async () => {
      const html = (await send(base, '/graphql', { headers: { accept: BROWSER_ACCEPT } })).body.toString();
      expect(configBlock(html)).toMatchObject({
        title: 'netgraph',
        defaultHeaders: { Authorization: 'Bearer t0k3n' },
        defaultQuery: expect.stringContaining('networkGroups'),
      });
    });

    it('references only assets the handler serves', async () => {
      const pageUrl = `${base}/graphql`;
      const html = (await send(base, '/graphql', { headers: { accept: BROWSER_ACCEPT } })).body.toString();
      const urls = assetUrls(html, pageUrl);
      expect(urls.length).toBe(8);
      for (const url of urls) {
        const reply = await send(base, url.pathname + url.search);
        expect({ url: url.pathname, status: reply.status }).toEqual({ url: url.pathname, status: 200 });
      }
    });
  });

  describe('inlined settings escaping', () => {
    const hostile = '</script><script>alert(1)</script><!--\u2028\u2029&"\'';
    let hostileServer: Server;
    let html: string;

    beforeAll(async () => {
      const started = await serve({
        graphqlPath: '/graphql',
        title: hostile,
        defaultQuery: `{ a } # ${hostile}`,
        defaultHeaders: { Authorization: `Bearer ${hostile}`, [hostile]: 'x' },
      });
      hostileServer = started.server;
      html = (await send(started.base, '/graphql', { headers: { accept: BROWSER_ACCEPT } })).body.toString();
    });
    afterAll(async () => {
      await new Promise((resolve) => hostileServer.close(resolve));
    });

    it('cannot close the script block or open a comment, and parses back to the exact values', () => {
      expect(html.match(/<\/script>/g)?.length).toBe(6);
      expect(html.match(/<script/g)?.length).toBe(6);
      expect(html).not.toContain('<!--');
      expect(configBlock(html)).toMatchObject({
        title: hostile,
        defaultQuery: `{ a } # ${hostile}`,
        defaultHeaders: { Authorization: `Bearer ${hostile}`, [hostile]: 'x' },
      });
    });

    it('escapes the title in HTML', () => {
      expect(html).toContain('<title>&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;!--');
    });
  });

  describe('assets', () => {
    it.each([
      ['react.production.min.js', 'text/javascript; charset=utf-8', 'react', 'umd/react.production.min.js'],
      ['react-dom.production.min.js', 'text/javascript; charset=utf-8', 'react-dom', 'umd/react-dom.production.min.js'],
      ['graphiql.min.js', 'text/javascript; charset=utf-8', 'graphiql', 'graphiql.min.js'],
      ['graphiql.min.css', 'text/css; charset=utf-8', 'graphiql', 'graphiql.min.css'],
      ['index.umd.js.map', 'application/json; charset=utf-8', 'graphiql', 'graphiql.min.js.map'],
      ['graphiql-plugin-explorer.umd.js', 'text/javascript; charset=utf-8', '@graphiql/plugin-explorer', 'dist/index.umd.js'],
      ['graphiql-plugin-explorer.css', 'text/css; charset=utf-8', '@graphiql/plugin-explorer', 'dist/style.css'],
    ])('%s is the package file, as %s', async (name, contentType, packageName, file) => {
      const reply = await send(base, `/graphql/ide/${name}`);
      expect(reply.status).toBe(200);
      expect(reply.headers['content-type']).toBe(contentType);
      expect(reply.headers['x-content-type-options']).toBe('nosniff');
      expect(reply.body.equals(packageFile(packageName, file))).toBe(true);
    });

    it('is immutable at its versioned URL and revalidated by ETag otherwise', async () => {
      const html = (await send(base, '/graphql', { headers: { accept: BROWSER_ACCEPT } })).body.toString();
      const versioned = assetUrls(html, `${base}/graphql`).find((u) => u.pathname.endsWith('/graphiql.min.js'));
      if (!versioned) throw new Error('graphiql.min.js not referenced');
      const pinned = await send(base, versioned.pathname + versioned.search);
      expect(pinned.headers['cache-control']).toBe('public, max-age=31536000, immutable');

      const stale = await send(base, `${versioned.pathname}?v=old`);
      expect(stale.headers['cache-control']).toBe('public, max-age=0, must-revalidate');
      const etag = String(stale.headers['etag']);
      expect(etag).toMatch(/^"[^"]+"$/);

      const conditional = await send(base, versioned.pathname, { headers: { 'if-none-match': etag } });
      expect(conditional.status).toBe(304);
      expect(conditional.body.length).toBe(0);
    });

    it('is gzipped for clients that accept it', async () => {
      const plain = packageFile('graphiql', 'graphiql.min.js');
      const reply = await send(base, '/graphql/ide/graphiql.min.js', { headers: { 'accept-encoding': 'gzip, deflate, br' } });
      expect(reply.headers['content-encoding']).toBe('gzip');
      expect(reply.body.length).toBeLessThan(plain.length / 2);
      expect(gunzipSync(reply.body).equals(plain)).toBe(true);
    });

    it('is not gzipped when the client refuses gzip', async () => {
      const reply = await send(base, '/graphql/ide/boot.js', { headers: { 'accept-encoding': 'gzip;q=0, identity' } });
      expect(reply.headers['content-encoding']).toBeUndefined();
      expect(reply.body.toString()).toContain('GraphiQL.createFetcher');
    });

    it('answers HEAD with headers only', async () => {
      const reply = await send(base, '/graphql/ide/graphiql.min.js', { method: 'HEAD' });
      expect(reply.status).toBe(200);
      expect(Number(reply.headers['content-length'])).toBe(packageFile('graphiql', 'graphiql.min.js').length);
      expect(reply.body.length).toBe(0);
    });
  });

  describe('path traversal', () => {
    it.each([
      '/graphql/ide/../../package.json',
      '/graphql/ide/%2e%2e/%2e%2e/package.json',
      '/graphql/ide/..%2f..%2fpackage.json',
      '/graphql/ide/%2e%2e%2f%2e%2e%2fpackage.json',
      '/graphql/ide/umd/react.production.min.js',
      '/graphql/ide//etc/passwd',
      '/graphql/ide/graphiql.min.js/../../../package.json',
      '/graphql/ide/package.json',
      '/graphql/ide/graphiql.js',
    ])('%s serves no file outside the allow-list', async (path) => {
      const reply = await send(base, path);
      expect(reply.status).not.toBe(200);
      expect(reply.body.toString()).not.toContain('"name"');
    });
  });

  describe('another endpoint path', () => {
    let other: Server;
    let otherBase: string;
    beforeAll(async () => {
      ({ server: other, base: otherBase } = await serve({ graphqlPath: '/api/v1/graphql/' }));
    });
    afterAll(async () => {
      await new Promise((resolve) => other.close(resolve));
    });

    it('serves the page there, with page-relative asset URLs under it', async () => {
      const page = await send(otherBase, '/api/v1/graphql', { headers: { accept: BROWSER_ACCEPT } });
      expect(page.status).toBe(200);
      const html = page.body.toString();
      expect(html).toContain('src="./graphql/ide/boot.js?v=');
      for (const url of assetUrls(html, `${otherBase}/api/v1/graphql`)) {
        expect(url.pathname.startsWith('/api/v1/graphql/ide/')).toBe(true);
        expect((await send(otherBase, url.pathname)).status).toBe(200);
      }
      expect((await send(otherBase, '/graphql', { headers: { accept: BROWSER_ACCEPT } })).status).toBe(418);
    });
  });
});
