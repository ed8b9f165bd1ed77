/**
 * Starts the sandbox upstream: creates the areas over one AreaContext, seeds them, and serves
 * them with the control path on one node:http server. Imports nothing from the gateway.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAuthArea } from './auth';
import { AsyncFailures, parseAsyncFailureRules } from './core/async-failures';
import type { BasicCredentials } from './core/auth-check';
import { Caching, type CachingRule } from './core/caching';
import { CallLog } from './core/call-log';
import { createClock, DEFAULT_STEP_MS } from './core/clock';
import { createControlRoutes, type SandboxControl, type SandboxFacts } from './core/control';
import { Faults } from './core/faults';
import { ADMIN_IDENTITY_ID, NOBODY_IDENTITY_ID, READER_IDENTITY_ID } from './core/identities';
import { LateAuthz } from './core/late-authz';
import { createRandom, type Random } from './core/random';
import { createRequestListener } from './core/server';
import { TokenService } from './core/tokens';
import { HttpError, type AreaContext, type Clock, type SandboxArea, type SeedSize } from './core/types';
import { createCoreV2Area } from './core-v2';
import { createRestV1Area, PROCESS_KINDS, type RestV1Facts } from './rest-v1';
import { createSearchArea } from './search';

export type { SandboxControl, SandboxFacts, StatusChange } from './core/control';
export type { FaultRule } from './core/faults';
export type { CachingRule, CachingState } from './core/caching';
export type { AsyncFailureRule } from './core/async-failures';
export type { AsyncChangeKind } from './core/types';
export type { CallCounts, CallTiming, RecordedRequest } from './core/call-log';
export type { RestV1Facts } from './rest-v1';
export type { Clock, SeedSize } from './core/types';
export { ManualClock } from './core/clock';
export { ADMIN_IDENTITY_ID, READER_IDENTITY_ID, NOBODY_IDENTITY_ID } from './core/identities';

export interface SandboxOptions {
  /** Port to listen on; 0 (default) picks a free one. */
  port?: number;
  /** @default '127.0.0.1' */
  host?: string;
  /** @default 'demo' */
  seed?: SeedSize;
  /**
   * Multiplies the seed's rest/v1 networks, each with the same endpoints, services and AppWANs
   * (the benchmark's scale series: `large` at 2 is 12 networks and 4,800 endpoints). Scale 1 is
   * the seed itself; a reset keeps the scale. @default 1
   */
  scale?: number;
  /** Length of one asynchronous step in ms. @default 2000 */
  stepMs?: number;
  /** Fixed latency added to every contract call in ms. @default 0 */
  latencyMs?: number;
  /** A clock to drive asynchronous progress (tests pass a ManualClock); overrides `stepMs`. */
  clock?: Clock;
  /**
   * The caching mode's rules (core/caching.ts): matching GETs carry ETag, Last-Modified and
   * `Cache-Control: private, max-age=N` and answer 304 to a matching If-None-Match or
   * If-Modified-Since. @default [] (off: no caching headers)
   */
  caching?: CachingRule[];
  /** Basic credentials of the search service; generated when left out. */
  searchCredentials?: BasicCredentials;
}

export interface RunningSandbox {
  /** Origin: auth at /auth/v1, rest at /rest/v1, identity at /identity/v1, core at /core/v2. */
  baseUrl: string;
  /** `${baseUrl}/search` */
  searchUrl: string;
  searchCredentials: BasicCredentials;
  /** Demo tokens (valid 30 days). */
  tokens: { admin: string; reader: string; nobody: string };
  /** Signs more tokens (e.g. an expired one for tests). */
  tokenService: TokenService;
  control: SandboxControl;
  /** Key facts of the current rest/v1 seed (ids of the first network group, networks, members…). */
  restFacts(): RestV1Facts;
  close(): Promise<void>;
}

/** Fixed generator seed: the same seed size always gives the same data. */
const RANDOM_SEED = 20240301;
const DEMO_TOKEN_LIFETIME_S = 30 * 24 * 3600;

export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const clock = options.clock ?? createClock(options.stepMs ?? DEFAULT_STEP_MS);
  let random: Random = createRandom(RANDOM_SEED);
  const authz = new LateAuthz();
  const asyncFailures = new AsyncFailures(PROCESS_KINDS);
  const ctx: AreaContext = { clock, authz, asyncFailures, random: () => random.next(), uuid: () => random.uuid() };
  const tokens = new TokenService('netgraph-sandbox');

  const auth = createAuthArea(ctx, tokens);
  authz.bind(auth.authz);
  const rest = createRestV1Area(ctx, { scale: options.scale ?? 1 });
  const search = createSearchArea(ctx);
  rest.bindSearch(search.searchService);
  // Network events are made from the networks rest/v1 seeded.
  search.bindNetworkFacts(() => rest.facts());
  // rest/v1 seeds before search so the search area sees the current networks.
  const areas: SandboxArea[] = [auth, rest, search, createCoreV2Area(ctx)];

  let seed: SeedSize = options.seed ?? 'demo';
  const reseed = (size: SeedSize): void => {
    random = createRandom(RANDOM_SEED);
    for (const area of areas) area.seed(size);
    seed = size;
  };
  reseed(seed);

  const calls = new CallLog();
  const faults = new Faults();
  const caching = new Caching();
  caching.set(options.caching ?? []);
  let latencyMs = options.latencyMs ?? 0;
  const control: SandboxControl = {
    reset(size) {
      reseed(size ?? seed);
      calls.reset();
      caching.resetCounts();
      // Failure rules are about changes of the data being replaced: they go with it.
      asyncFailures.clear();
    },
    setFaults: (rules) => faults.set(rules),
    clearFaults: () => faults.clear(),
    faults: () => faults.list(),
    setLatency(ms) {
      latencyMs = ms;
    },
    latency: () => latencyMs,
    failAsync: (rule) => asyncFailures.add(parseAsyncFailureRules(rule)),
    asyncFailures: () => asyncFailures.list(),
    clearAsyncFailures: () => asyncFailures.clear(),
    calls: () => calls.snapshot(),
    requests: () => calls.requests(),
    timings: () => calls.timings(),
    resetCalls() {
      calls.reset();
      caching.resetCounts();
    },
    setCaching: (rules) => caching.set(rules),
    caching: () => caching.state(),
    clearCaching: () => caching.clear(),
    describe(): SandboxFacts {
      return { seed, areas: { 'rest-v1': rest.facts() } };
    },
    setStatus({ kind, id, status }) {
      if (!rest.setStatus(kind, id, status)) throw new HttpError(404, `${kind} ${id} not found`);
    },
  };

  const searchCredentials = options.searchCredentials ?? { username: 'sandbox', password: randomBytes(12).toString('hex') };
  const server = createServer(
    createRequestListener({
      routes: areas.flatMap((a) => a.routes),
      controlRoutes: createControlRoutes(control),
      tokens,
      basic: searchCredentials,
      faults,
      calls,
      caching,
      latencyMs: () => latencyMs,
    }),
  );
  const address = await listen(server, options.port ?? 0, options.host ?? '127.0.0.1');
  const hostPart = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const baseUrl = `http://${hostPart}:${address.port}`;
  const sign = (sub: string): string => tokens.sign({ sub }, DEMO_TOKEN_LIFETIME_S);
  return {
    baseUrl,
    searchUrl: `${baseUrl}/search`,
    searchCredentials,
    tokens: { admin: sign(ADMIN_IDENTITY_ID), reader: sign(READER_IDENTITY_ID), nobody: sign(NOBODY_IDENTITY_ID) },
    tokenService: tokens,
    control,
    restFacts() {
      const facts = rest.facts();
      if (facts === null) throw new Error('sandbox: rest/v1 is not seeded');
      return facts;
    },
    close: () => close(server),
  };
}

function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const address = server.address();
      if (address === null || typeof address === 'string') reject(new Error('sandbox: no TCP address'));
      else resolve(address);
    });
  });
}

function close(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.close((err) => (err ? reject(err) : resolve()));
    server.closeAllConnections();
  });
}
