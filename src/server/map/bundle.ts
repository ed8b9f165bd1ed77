import { join } from 'node:path';
import { build as esbuild } from 'esbuild';
import { projectRoot } from '../project-root';

export interface MapBundle {
  js: Buffer;
  css: Buffer;
}

let building: Promise<MapBundle> | null = null;

/**
 * Bundles `web/map/main.ts` (urql, the graphql-ws client, Cytoscape.js with dagre, the page's own
 * code) with esbuild's JS API, once per process, on the first request for the page. Building at run
 * time keeps `npm ci && npm start` and `npm ci && npm test` working with no extra build step, and
 * a gateway that is never asked for the map never pays for it (about half a second). esbuild's
 * service process starts on the first build only; importing the module costs nothing else.
 */
export function mapBundle(): Promise<MapBundle> {
  building ??= build().catch((error: unknown) => {
    building = null; // a failed build is retried on the next request, not cached
    throw error;
  });
  return building;
}

async function build(): Promise<MapBundle> {
  const root = projectRoot();
  const result = await esbuild({
    entryPoints: [join(root, 'web', 'map', 'main.ts'), join(root, 'web', 'map', 'map.css')],
    bundle: true,
    minify: true,
    format: 'iife',
    platform: 'browser',
    target: ['es2020'],
    legalComments: 'none',
    write: false,
    outdir: 'out',
    logLevel: 'silent',
  });
  const js = result.outputFiles.find((f) => f.path.endsWith('.js'));
  const css = result.outputFiles.find((f) => f.path.endsWith('.css'));
  if (!js || !css) throw new Error('map bundle: esbuild produced no js/css');
  return { js: Buffer.from(js.contents), css: Buffer.from(css.contents) };
}
