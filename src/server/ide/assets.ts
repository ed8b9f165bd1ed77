import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { BOOT_SCRIPT } from './boot-script';

const JS = 'text/javascript; charset=utf-8';
const CSS = 'text/css; charset=utf-8';
const JSON_TYPE = 'application/json; charset=utf-8';

/** Where an asset's bytes come from: a file of an installed package, or text of this module. */
type AssetSource =
  | { kind: 'package'; packageName: string; file: string }
  | { kind: 'text'; text: string };

interface AssetSpec {
  /** The last segment of its URL, `{graphqlPath}/ide/<name>`. */
  name: string;
  contentType: string;
  source: AssetSource;
}

/**
 * The allow-list: nothing else is ever read from disk, so no request path can reach another file.
 * GraphiQL 3's UMD bundle runs on React 18's UMD builds (globals `React`, `ReactDOM`) and bundles
 * the graphql-ws client, so subscriptions need nothing else; the Explorer plugin runs on those.
 */
const ASSET_SPECS: readonly AssetSpec[] = [
  { name: 'react.production.min.js', contentType: JS, source: { kind: 'package', packageName: 'react', file: 'umd/react.production.min.js' } },
  { name: 'react-dom.production.min.js', contentType: JS, source: { kind: 'package', packageName: 'react-dom', file: 'umd/react-dom.production.min.js' } },
  { name: 'graphiql.min.js', contentType: JS, source: { kind: 'package', packageName: 'graphiql', file: 'graphiql.min.js' } },
  { name: 'graphiql.min.css', contentType: CSS, source: { kind: 'package', packageName: 'graphiql', file: 'graphiql.min.css' } },
  // graphiql.min.js ends with `sourceMappingURL=index.umd.js.map`; only browser dev tools ask for it.
  { name: 'index.umd.js.map', contentType: JSON_TYPE, source: { kind: 'package', packageName: 'graphiql', file: 'graphiql.min.js.map' } },
  // The query Explorer (tick fields to build a query): a UMD build on the globals React and
  // GraphiQL (its React hooks and graphql-js), global GraphiQLPluginExplorer; no source map.
  { name: 'graphiql-plugin-explorer.umd.js', contentType: JS, source: { kind: 'package', packageName: '@graphiql/plugin-explorer', file: 'dist/index.umd.js' } },
  { name: 'graphiql-plugin-explorer.css', contentType: CSS, source: { kind: 'package', packageName: '@graphiql/plugin-explorer', file: 'dist/style.css' } },
  { name: 'boot.js', contentType: JS, source: { kind: 'text', text: BOOT_SCRIPT } },
  // The page's own layout, a file too so that style-src needs no inline allowance for it.
  { name: 'ide.css', contentType: CSS, source: { kind: 'text', text: 'html,body,#graphiql{height:100%;margin:0;overflow:hidden}\n.netgraph-map-link{font-size:12px;font-weight:normal}\n' } },
];

export interface IdeAsset {
  name: string;
  contentType: string;
  body: Buffer;
  /** Strong validator, quoted as the ETag header wants it. */
  etag: string;
  /** Short content hash put into page URLs (`?v=`), so a cached copy can be `immutable`. */
  version: string;
  /** Gzipped body, computed on the first request that accepts gzip. */
  gzipped(): Buffer;
}

/**
 * Packages are found through their package.json: their `exports` maps hide `umd/` and the
 * `graphiql.min.*` files from `require.resolve`, and resolving from here works from `dist/`
 * and from ts-jest alike.
 */
function readSource(source: AssetSource): Buffer {
  if (source.kind === 'text') return Buffer.from(source.text, 'utf8');
  const packageDir = dirname(require.resolve(`${source.packageName}/package.json`));
  return readFileSync(join(packageDir, source.file));
}

function toAsset(spec: AssetSpec): IdeAsset {
  const body = readSource(spec.source);
  const hash = createHash('sha256').update(body).digest('base64url');
  let gzipped: Buffer | undefined;
  return {
    name: spec.name,
    contentType: spec.contentType,
    body,
    etag: `"${hash.slice(0, 27)}"`,
    version: hash.slice(0, 12),
    gzipped: () => (gzipped ??= gzipSync(body)),
  };
}

/** Reads every allowed asset once; throws at start-up when a package is missing. */
export function loadIdeAssets(): ReadonlyMap<string, IdeAsset> {
  return new Map(ASSET_SPECS.map((spec) => [spec.name, toAsset(spec)]));
}
