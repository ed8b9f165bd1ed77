/**
 * The network map page (`GET /map`): one HTML page plus its bundle (`/map/map.js`, `/map/map.css`),
 * all from this package, no CDN. The page itself talks to `/graphql` (HTTP and graphql-ws) like any
 * other client, and opens on a network at once (`?network=<id>`, else the first).
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import { pageContentSecurityPolicy } from '../csp';
import { escapeHtml, jsonForScript } from '../ide/page';
import { mapBundle, type MapBundle } from './bundle';

export const MAP_PATH = '/map';

export interface MapHandlerOptions {
  /** Prefilled in the page's token field (sandbox mode: the demo admin token). */
  defaultToken?: string;
  /** Path of the GraphQL endpoint, relative to the page's origin. @default '/graphql' */
  graphqlPath?: string;
}

/** Serves the request and returns true, or returns false for the next handler. */
export type MapHandler = (req: IncomingMessage, res: ServerResponse) => Promise<boolean>;

/** What the page reads from its inlined JSON block. */
export interface MapPageSettings {
  defaultToken: string;
  graphqlPath: string;
}

/**
 * The gateway's page policy (../csp.ts) with no exception: the bundle needs no eval and inserts no
 * <style> elements (Cytoscape draws on canvas and sets element styles through the CSSOM, which CSP
 * does not govern), and the page loads no fonts.
 */
export function mapContentSecurityPolicy(): string {
  return pageContentSecurityPolicy();
}

const COMMON_HEADERS: Record<string, string> = { 'X-Content-Type-Options': 'nosniff', 'Referrer-Policy': 'no-referrer' };

interface Asset {
  body: Buffer;
  gzipped: Buffer;
  etag: string;
  version: string;
  contentType: string;
}

function asset(body: Buffer, contentType: string): Asset {
  const hash = createHash('sha256').update(body).digest('base64url');
  return { body, gzipped: gzipSync(body), etag: `"${hash.slice(0, 27)}"`, version: hash.slice(0, 12), contentType };
}

export function renderMapPage(settings: MapPageSettings, assets: { js: Asset; css: Asset }): string {
  // The stylesheet carries the id Cytoscape looks for before inserting its own <style> element
  // (which style-src 'self' would refuse); map.css holds the one rule that element would add.
  // Page-relative URLs (`map/…` from `/map`), so a path-prefixing proxy keeps working.
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<link rel="icon" href="data:,">
<title>netgraph — network map</title>
<link rel="stylesheet" id="__________cytoscape_stylesheet" href="map/map.css?v=${escapeHtml(assets.css.version)}">
</head>
<body>
<header>
  <strong>netgraph</strong> network map
  <label>Token <input id="token" type="password" autocomplete="off" spellcheck="false"></label>
  <label>Network <select id="network"></select></label>
  <label>Group <select id="grouping"><option value="auto">auto</option><option value="none">none</option><option value="type">by type</option><option value="appWan">by AppWAN</option></select></label>
  <input id="search" type="search" placeholder="Search by name">
  <span id="counts"></span>
  <a href="graphql">GraphQL IDE</a>
</header>
<div id="message" role="status" hidden></div>
<main>
  <div id="graph" data-nodes="0" data-edges="0" data-ready="false" data-live="connecting"></div>
  <div id="side">
    <aside id="details"><p class="hint">Click a node for its details.</p></aside>
    <section id="activity"><h3>Recent changes</h3><ol id="changes"></ol></section>
  </div>
</main>
<div id="legend"></div>
<noscript>The network map needs JavaScript.</noscript>
<script type="application/json" id="netgraph-map-settings">${jsonForScript(settings)}</script>
<script src="map/map.js?v=${escapeHtml(assets.js.version)}"></script>
</body>
</html>
`;
}

function send(req: IncomingMessage, res: ServerResponse, status: number, headers: Record<string, string>, body: Buffer, gzipped?: Buffer): void {
  const useGzip = gzipped !== undefined && /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
  const payload = useGzip ? gzipped : body;
  res.writeHead(status, {
    ...COMMON_HEADERS,
    ...headers,
    ...(useGzip ? { 'Content-Encoding': 'gzip' } : {}),
    ...(gzipped !== undefined ? { Vary: 'Accept-Encoding' } : {}),
    'Content-Length': String(payload.length),
  });
  res.end(req.method === 'HEAD' ? undefined : payload);
}

export function createMapHandler(options: MapHandlerOptions = {}): MapHandler {
  const settings: MapPageSettings = { defaultToken: options.defaultToken ?? '', graphqlPath: options.graphqlPath ?? '/graphql' };
  let assets: Promise<{ js: Asset; css: Asset }> | null = null;
  const load = (): Promise<{ js: Asset; css: Asset }> =>
    (assets ??= mapBundle().then(
      (b: MapBundle) => ({ js: asset(b.js, 'text/javascript; charset=utf-8'), css: asset(b.css, 'text/css; charset=utf-8') }),
      (error: unknown) => {
        assets = null;
        throw error;
      },
    ));

  return async (req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    if (path !== MAP_PATH && !path.startsWith(`${MAP_PATH}/`)) return false;
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      send(req, res, 405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' }, Buffer.from('Method not allowed\n'));
      return true;
    }
    const built = await load();
    if (path === MAP_PATH || path === `${MAP_PATH}/`) {
      const page = Buffer.from(renderMapPage(settings, built), 'utf8');
      // no-store: in sandbox mode the page holds a token.
      send(req, res, 200, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': mapContentSecurityPolicy(), 'Cache-Control': 'no-store' }, page);
      return true;
    }
    const file = path === `${MAP_PATH}/map.js` ? built.js : path === `${MAP_PATH}/map.css` ? built.css : null;
    if (!file) {
      send(req, res, 404, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' }, Buffer.from('Not found\n'));
      return true;
    }
    const version = new URL(req.url ?? '/', 'http://map.invalid').searchParams.get('v');
    const headers = {
      'Content-Type': file.contentType,
      ETag: file.etag,
      'Cache-Control': version === file.version ? 'public, max-age=31536000, immutable' : 'public, max-age=0, must-revalidate',
    };
    if (req.headers['if-none-match'] === file.etag) {
      res.writeHead(304, { ...COMMON_HEADERS, ...headers }).end();
      return true;
    }
    send(req, res, 200, headers, file.body, file.gzipped);
    return true;
  };
}
