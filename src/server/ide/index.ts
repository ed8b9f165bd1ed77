import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { loadIdeAssets, type IdeAsset } from './assets';
import { ideContentSecurityPolicy } from './csp';
import { renderIdePage } from './page';

export interface IdeHandlerOptions {
  /** Path of the GraphQL endpoint; the IDE is served there to browsers, its assets under `{graphqlPath}/ide/`. */
  graphqlPath: string;
  /** Prefilled in the headers editor (e.g. a demo `Authorization` in sandbox mode). @default {} */
  defaultHeaders?: Record<string, string>;
  /** Shown in the page title and GraphiQL's logo slot. @default 'netgraph' */
  title?: string;
  /** Query editor content for a first visit. @default a commented network-groups query */
  defaultQuery?: string;
}

/** Serves the request and returns true, or returns false and leaves it to the next handler. */
export type IdeHandler = (req: IncomingMessage, res: ServerResponse) => boolean;

export const DEFAULT_IDE_QUERY = `# Welcome to netgraph: one GraphQL graph
# over the platform's REST interfaces.
#
# Run: Ctrl-Enter (Cmd-Enter) or the ▶ button.
# Docs: the book icon on the left.
# Token: the Headers tab below.

query NetworkGroups {
  networkGroups {
    totalCount
    nodes {
      id
      name
    }
  }
}
`;

const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'public, max-age=0, must-revalidate';

/** Headers every IDE response carries. */
const COMMON_HEADERS: Record<string, string> = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

function isReadMethod(method: string | undefined): boolean {
  return method === 'GET' || method === 'HEAD';
}

/** A browser navigation asks for HTML; API clients ask for JSON (or send `*` only). */
function wantsHtml(req: IncomingMessage): boolean {
  return (req.headers.accept ?? '').toLowerCase().includes('text/html');
}

/** True when Accept-Encoding lists `encoding` without `q=0`. */
function accepts(req: IncomingMessage, encoding: string): boolean {
  return (req.headers['accept-encoding'] ?? '')
    .toLowerCase()
    .split(',')
    .some((part) => {
      const [name, ...params] = part.split(';').map((p) => p.trim());
      return name === encoding && !params.some((p) => /^q=0(\.0*)?$/.test(p));
    });
}

/** Last path segment of the endpoint, so page-relative asset URLs survive a path-prefixing proxy. */
function relativeAssetBase(graphqlPath: string): string {
  const segment = graphqlPath.split('/').filter(Boolean).pop();
  return segment ? `./${encodeURIComponent(segment)}/ide/` : './ide/';
}

function sendAsset(req: IncomingMessage, res: ServerResponse, asset: IdeAsset, version: string | null): void {
  const headers: Record<string, string> = {
    ...COMMON_HEADERS,
    'Content-Type': asset.contentType,
    ETag: asset.etag,
    // Page URLs carry the content hash, so a matching `v` never changes; anything else revalidates.
    'Cache-Control': version === asset.version ? IMMUTABLE : REVALIDATE,
    Vary: 'Accept-Encoding',
  };
  if (req.headers['if-none-match'] === asset.etag) {
    res.writeHead(304, headers).end();
    return;
  }
  const body = accepts(req, 'gzip') ? asset.gzipped() : asset.body;
  if (body !== asset.body) headers['Content-Encoding'] = 'gzip';
  headers['Content-Length'] = String(body.length);
  res.writeHead(200, headers);
  res.end(req.method === 'HEAD' ? undefined : body);
}

function sendNotFound(res: ServerResponse): void {
  res.writeHead(404, { ...COMMON_HEADERS, 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' });
  res.end('Not found\n');
}

/**
 * The GraphQL IDE (GraphiQL 3 on React 18, every file from this package's node_modules, no CDN).
 * `GET {graphqlPath}` with `Accept: text/html` and no `query` parameter gets the page (a GET that
 * carries a query is a GraphQL request and goes on to the API); `GET {graphqlPath}/ide/<name>`
 * gets one of a fixed list of assets. Assets are read once, here, so a missing package fails at
 * start-up rather than on the first visit.
 */
export function createIdeHandler(options: IdeHandlerOptions): IdeHandler {
  const graphqlPath = options.graphqlPath.replace(/\/+$/, '') || '/';
  const assetPrefix = `${graphqlPath === '/' ? '' : graphqlPath}/ide/`;
  const assets = loadIdeAssets();
  const assetBase = relativeAssetBase(graphqlPath);
  const settings = {
    title: options.title ?? 'netgraph',
    defaultQuery: options.defaultQuery ?? DEFAULT_IDE_QUERY,
    defaultHeaders: { ...options.defaultHeaders },
  };
  const assetUrl = (name: string): string => `${assetBase}${name}?v=${assets.get(name)?.version ?? ''}`;

  return (req, res) => {
    if (!isReadMethod(req.method)) return false;
    const url = new URL(req.url ?? '/', 'http://ide.invalid');

    if (url.pathname === graphqlPath) {
      if (!wantsHtml(req) || url.searchParams.has('query')) return false;
      const styleNonce = randomBytes(16).toString('base64');
      const page = Buffer.from(renderIdePage({ config: { ...settings, styleNonce }, assetUrl }), 'utf8');
      res.writeHead(200, {
        ...COMMON_HEADERS,
        'Content-Type': 'text/html; charset=utf-8',
        'Content-Length': String(page.length),
        'Content-Security-Policy': ideContentSecurityPolicy(styleNonce),
        // The page may hold a token (sandbox mode), and /graphql answers JSON to other clients.
        'Cache-Control': 'no-store',
        Vary: 'Accept',
      });
      res.end(req.method === 'HEAD' ? undefined : page);
      return true;
    }

    if (!url.pathname.startsWith(assetPrefix)) return false;
    // Only exact names from the allow-list: `..`, `%2e%2e`, extra slashes all miss the map.
    const asset = assets.get(url.pathname.slice(assetPrefix.length));
    if (asset) sendAsset(req, res, asset, url.searchParams.get('v'));
    else sendNotFound(res);
    return true;
  };
}
