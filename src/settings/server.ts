/** Where the gateway listens and how it runs operations. */
import { ConfigError, area, choice, custom, int, onOff, optionalInt, type SettingsOf } from './setting';

export const PORT = int({ name: 'PORT', meaning: 'port to listen on (0: any free port)', min: 0, max: 65535, fallback: 4000 });

export const METRICS_PORT = optionalInt({
  name: 'METRICS_PORT',
  meaning: "serve `/metrics` on this port of `HOST` only, and not on `PORT`, so the API's clients cannot read the gateway's metrics (recommended in production; [Operations](operations.md))",
  min: 0,
  max: 65535,
  defaultText: 'unset: `/metrics` on `PORT`',
});

export const HOST = custom<string>({
  name: 'HOST',
  meaning: 'interface to listen on; one other than loopback (`127.0.0.0/8`, `::1`, `localhost`) needs `UPSTREAM_BASE_URL` or `SANDBOX=on`',
  defaultText: '`127.0.0.1`',
  rangeText: 'a host name or IP address',
  read(env) {
    const host = env.text('HOST') ?? '127.0.0.1';
    if (/\s|\//.test(host)) throw new ConfigError(`HOST must be a host name or IP address; got ${JSON.stringify(host)}`);
    return host;
  },
});

/** 127.0.0.0/8, ::1 and localhost: only this machine can reach the gateway. */
export function isLoopback(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  return h === 'localhost' || h === '::1' || h === '::ffff:127.0.0.1' || /^127(?:\.\d{1,3}){3}$/.test(h);
}

/** True for `development`: unexpected errors show their message and stack to clients. */
export const NODE_ENV = custom<boolean>({
  name: 'NODE_ENV',
  meaning: '`production`: graphql-js skips its development-only checks (e.g. `instanceOf`) on hot paths. `development`: unexpected errors show their message and stack to clients (otherwise they are masked)',
  defaultText: '`production` under `npm start` and `npm run bench` when unset',
  rangeText: 'any',
  read: (env) => env.text('NODE_ENV') === 'development',
});

export const NETGRAPH_EXECUTOR = choice({
  name: 'NETGRAPH_EXECUTOR',
  meaning:
    'how queries and mutations execute, on every door. `jit` compiles each operation once with graphql-jit (kept with its prepared document: at most 1,000 documents, 4 MiB of text) and runs on graphql-js what graphql-jit handles badly (recursive input variables, operations that expand to very many fields, variables that do not coerce). Subscriptions always run on graphql-js. Answers are the same on both; `npm test` runs the integration suites on each',
  values: ['jit', 'graphql-js'] as const,
  fallback: 'jit',
});

export const INTROSPECTION = onOff({
  name: 'INTROSPECTION',
  meaning: '`off` refuses `__schema` and `__type` at validation (`GRAPHQL_VALIDATION_FAILED`; `__typename` still works); the IDE then cannot load the schema. Recommended `off` with trusted documents only',
  fallback: true,
});

export const PROBE_CACHE_MS = int({
  name: 'PROBE_CACHE_MS',
  meaning: 'how long one round of upstream probes answers `/readyz` and `checkUpstreams` after it finished (0: only the askers during the round share it); one round is in flight at a time',
  min: 0,
  max: 60_000,
  fallback: 2000,
});

export const SERVER = area({
  title: 'Server',
  settings: {
    port: PORT,
    host: HOST,
    metricsPort: METRICS_PORT,
    development: NODE_ENV,
    executor: NETGRAPH_EXECUTOR,
    introspection: INTROSPECTION,
    probeCacheMs: PROBE_CACHE_MS,
  },
});

export type ServerSettings = SettingsOf<typeof SERVER>;
