/** Where the platform is (or the demo sandbox standing in for it), and how it is called. */
import { ConfigError, MAX_MS, area, choice, custom, httpUrl, int, onOff, url, word, type SettingsOf } from './setting';
import { HOST, isLoopback } from './server';

export const SANDBOX = custom<boolean | null>({
  name: 'SANDBOX',
  meaning: '`on`: serve the embedded demo sandbox on any `HOST` (demo only: it hands out its admin token; excludes `UPSTREAM_BASE_URL`). `off`: never; `UPSTREAM_BASE_URL` is then required',
  defaultText: 'unset: the sandbox when no upstream is set and `HOST` is loopback',
  rangeText: '`on`, `off`',
  read(env) {
    const value = env.text('SANDBOX');
    return value === undefined ? null : word('SANDBOX', value, ['on', 'off'] as const) === 'on';
  },
});

/** Null when the demo sandbox stands in for the platform, which it may only when asked for. */
export const UPSTREAM_BASE_URL = custom<string | null>({
  name: 'UPSTREAM_BASE_URL',
  meaning: "the platform's base URL (may carry a path prefix): the authorization API at `/auth/v1`, network management at `/rest/v1`, identity at `/identity/v1`, the management API v2 at `/core/v2`. No credentials, query string or fragment; trailing slashes are dropped. Set but blank is an error",
  defaultText: 'unset: the embedded sandbox, on a loopback `HOST` only (else an error naming `UPSTREAM_BASE_URL` and `SANDBOX`)',
  rangeText: '`http://` or `https://` URL',
  read(env) {
    const given = env.raw('UPSTREAM_BASE_URL');
    if (given !== undefined && given.trim() === '') throw new ConfigError("UPSTREAM_BASE_URL is blank: set the platform's base URL, or leave the variable out (the demo sandbox then runs on a loopback HOST only)");
    const upstreamBaseUrl = httpUrl('UPSTREAM_BASE_URL', env.text('UPSTREAM_BASE_URL'));
    const sandbox = env.get(SANDBOX);
    if (upstreamBaseUrl !== null) {
      if (sandbox === true) throw new ConfigError('SANDBOX=on serves the demo sandbox instead of a platform: leave out UPSTREAM_BASE_URL or SANDBOX');
      return upstreamBaseUrl;
    }
    if (sandbox === false) throw new ConfigError('UPSTREAM_BASE_URL must be set (SANDBOX=off: the demo sandbox never runs)');
    const host = env.get(HOST);
    if (sandbox === null && !isLoopback(host)) {
      throw new ConfigError(`UPSTREAM_BASE_URL must be set when HOST (${host}) is not a loopback address; SANDBOX=on serves the demo sandbox there instead (demo only: it hands out an admin token)`);
    }
    return null;
  },
});

export const SANDBOX_SEED = choice({ name: 'SANDBOX_SEED', meaning: "the sandbox's data set (sandbox mode only)", values: ['tiny', 'demo', 'large'] as const, fallback: 'demo' });

export const SEARCH_URL = url({
  name: 'SEARCH_URL',
  meaning: 'the event search service',
  defaultText: "the sandbox's search service in sandbox mode; otherwise unset, and event fields answer `NOT_CONFIGURED`",
  rangeText: '`http://` or `https://` URL without credentials',
});

export const SEARCH_USERNAME = custom<string | undefined>({
  name: 'SEARCH_USERNAME',
  meaning: 'basic user name for the search service (with `SEARCH_PASSWORD`); never sent to clients',
  defaultText: 'unset',
  rangeText: 'with `SEARCH_PASSWORD`',
  read: (env) => env.text('SEARCH_USERNAME'),
});

/** Read as given (a password may start or end with a space); never echoed, not even in a config error. */
export const SEARCH_PASSWORD = custom<string | undefined>({
  name: 'SEARCH_PASSWORD',
  meaning: 'basic password for the search service (with `SEARCH_USERNAME`); never sent to clients, never logged, never echoed in a config error',
  defaultText: 'unset',
  rangeText: 'with `SEARCH_USERNAME`',
  read(env) {
    const raw = env.raw('SEARCH_PASSWORD');
    const password = raw === '' ? undefined : raw;
    const username = env.get(SEARCH_USERNAME);
    if (username === undefined && password !== undefined) throw new ConfigError('SEARCH_USERNAME must be set when SEARCH_PASSWORD is');
    if (username !== undefined && password === undefined) throw new ConfigError('SEARCH_PASSWORD must be set when SEARCH_USERNAME is');
    return password;
  },
});

export const UPSTREAM_CONNECT_TIMEOUT_MS = int({ name: 'UPSTREAM_CONNECT_TIMEOUT_MS', meaning: 'time to open a connection to an upstream', min: 1, max: MAX_MS, fallback: 5000 });
export const UPSTREAM_HEADERS_TIMEOUT_MS = int({ name: 'UPSTREAM_HEADERS_TIMEOUT_MS', meaning: 'time from sending a request to its response headers', min: 1, max: MAX_MS, fallback: 10_000 });
export const UPSTREAM_BODY_TIMEOUT_MS = int({ name: 'UPSTREAM_BODY_TIMEOUT_MS', meaning: 'longest pause while reading a response body', min: 1, max: MAX_MS, fallback: 10_000 });
export const UPSTREAM_RETRY_ATTEMPTS = int({
  name: 'UPSTREAM_RETRY_ATTEMPTS',
  meaning: 'attempts per upstream GET, the first included (1: no retries). POST, PUT and DELETE are never retried',
  min: 1,
  max: 10,
  fallback: 3,
});
export const UPSTREAM_RETRY_BASE_MS = int({ name: 'UPSTREAM_RETRY_BASE_MS', meaning: 'base of the exponential backoff between GET attempts (full jitter)', min: 0, max: MAX_MS, fallback: 50 });
export const UPSTREAM_RETRY_MAX_DELAY_MS = int({ name: 'UPSTREAM_RETRY_MAX_DELAY_MS', meaning: 'upper bound of one backoff delay', min: 0, max: MAX_MS, fallback: 1000 });
export const UPSTREAM_RETRY_AFTER_MAX_MS = int({
  name: 'UPSTREAM_RETRY_AFTER_MAX_MS',
  meaning: "longest window a `Retry-After` closes for: a 503's closes the upstream API (every request fails fast inside it), a 429's closes it to the credential that heard it alone; a longer one is cut to it",
  min: 0,
  max: MAX_MS,
  fallback: 60_000,
});
export const UPSTREAM_MAX_BODY_BYTES = int({
  name: 'UPSTREAM_MAX_BODY_BYTES',
  meaning: 'largest upstream response body read; a larger one is `UPSTREAM_BAD_RESPONSE`, its read stopped',
  min: 1024,
  max: 1024 * 1024 * 1024,
  fallback: 32 * 1024 * 1024,
});
export const UPSTREAM_FORWARD_TRACESTATE = onOff({
  name: 'UPSTREAM_FORWARD_TRACESTATE',
  meaning: "`on` passes a caller's `tracestate` to the platform with `traceparent` (off: a caller's vendor state stays at the gateway)",
  fallback: false,
});
export const UPSTREAM_MAX_CONCURRENCY = int({
  name: 'UPSTREAM_MAX_CONCURRENCY',
  meaning: 'upstream calls one operation may have in flight; the default equals the connections kept per upstream origin, so one level of a large graph goes out in one wave',
  min: 1,
  max: 256,
  fallback: 64,
});

export const UPSTREAM = area({
  title: 'Upstream',
  intro:
    '**Safe defaults.** The demo sandbox never answers in production by accident: it starts only with\n' +
    'no `UPSTREAM_BASE_URL` on a loopback `HOST` (`npm start` as is), or with `SANDBOX=on` (a demo on\n' +
    'another address: the IDE and `/map` hand its admin token to whoever opens them). A blank\n' +
    '`UPSTREAM_BASE_URL`, or none on a non-loopback `HOST` such as the container image\'s `0.0.0.0`,\n' +
    'stops the gateway; the start-up banner and `/readyz` (`"mode": "sandbox"`) say when the sandbox\n' +
    'runs.',
  settings: {
    baseUrl: UPSTREAM_BASE_URL,
    sandbox: SANDBOX,
    sandboxSeed: SANDBOX_SEED,
    searchUrl: SEARCH_URL,
    searchUsername: SEARCH_USERNAME,
    searchPassword: SEARCH_PASSWORD,
    connectTimeoutMs: UPSTREAM_CONNECT_TIMEOUT_MS,
    headersTimeoutMs: UPSTREAM_HEADERS_TIMEOUT_MS,
    bodyTimeoutMs: UPSTREAM_BODY_TIMEOUT_MS,
    retryAttempts: UPSTREAM_RETRY_ATTEMPTS,
    retryBaseDelayMs: UPSTREAM_RETRY_BASE_MS,
    retryMaxDelayMs: UPSTREAM_RETRY_MAX_DELAY_MS,
    retryAfterMaxMs: UPSTREAM_RETRY_AFTER_MAX_MS,
    maxConcurrentPerRequest: UPSTREAM_MAX_CONCURRENCY,
    maxBodyBytes: UPSTREAM_MAX_BODY_BYTES,
    forwardTracestate: UPSTREAM_FORWARD_TRACESTATE,
  },
});

export type UpstreamSettings = SettingsOf<typeof UPSTREAM>;

/** The search service's basic credentials, when both are set (the reader refuses one alone). */
export function searchCredentialsOf(upstream: UpstreamSettings): { username: string; password: string } | null {
  const { searchUsername: username, searchPassword: password } = upstream;
  return username !== undefined && password !== undefined ? { username, password } : null;
}
