import { availableParallelism } from 'node:os';
import { ConfigError, loadConfig } from '../../src/config';

function configError(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (e) {
    if (e instanceof ConfigError) return e.message;
    throw e;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('has documented defaults: sandbox mode on 127.0.0.1:4000 with batching on', () => {
    expect(loadConfig({})).toMatchObject({
      executor: 'jit',
      upstreamBaseUrl: null,
      searchUrl: null,
      searchCredentials: null,
      port: 4000,
      host: '127.0.0.1',
      retryAttempts: 3,
      batching: true,
      sandboxSeed: 'demo',
      development: false,
    });
  });

  it('reads every variable', () => {
    const config = loadConfig({
      UPSTREAM_BASE_URL: 'https://platform.example/api/',
      SEARCH_URL: 'https://search.example:9200',
      SEARCH_USERNAME: 'svc',
      SEARCH_PASSWORD: 'p w',
      PORT: '0',
      HOST: '0.0.0.0',
      UPSTREAM_RETRY_ATTEMPTS: '1',
      UPSTREAM_HEADERS_TIMEOUT_MS: '250',
      NETGRAPH_BATCHING: 'OFF',
      NETGRAPH_EXECUTOR: 'GraphQL-JS',
      SANDBOX_SEED: 'large',
      NODE_ENV: 'development',
    });
    expect(config).toMatchObject({
      upstreamBaseUrl: 'https://platform.example/api',
      searchUrl: 'https://search.example:9200',
      searchCredentials: { username: 'svc', password: 'p w' },
      executor: 'graphql-js',
      port: 0,
      host: '0.0.0.0',
      retryAttempts: 1,
      headersTimeoutMs: 250,
      batching: false,
      sandboxSeed: 'large',
      development: true,
    });
  });

  it('has documented subscription defaults, and reads them', () => {
    expect(loadConfig({})).toMatchObject({
      pollIntervalMs: 2000,
      pollMaxIntervalMs: 15_000,
      pollMaxErrors: 5,
      pollNotFoundGraceMs: 10_000,
      maxSubscriptionsPerConnection: 20,
      maxPollers: 1000,
    });
    const env = { POLL_INTERVAL_MS: '500', POLL_MAX_INTERVAL_MS: '4000', POLL_MAX_ERRORS: '2', POLL_NOT_FOUND_GRACE_MS: '0', MAX_SUBSCRIPTIONS_PER_CONNECTION: '3', MAX_POLLERS: '7' };
    expect(loadConfig(env)).toMatchObject({ pollIntervalMs: 500, pollMaxIntervalMs: 4000, pollMaxErrors: 2, pollNotFoundGraceMs: 0, maxSubscriptionsPerConnection: 3, maxPollers: 7 });
    // An interval above the default ceiling lifts the ceiling with it.
    expect(loadConfig({ POLL_INTERVAL_MS: '30000' })).toMatchObject({ pollIntervalMs: 30_000, pollMaxIntervalMs: 30_000 });
  });

  it('lets heavy operations take turns: one slot per core (at least 2) from 100 estimated calls, both configurable', () => {
    expect(loadConfig({}).limits.admission).toEqual({ heavyConcurrency: Math.max(2, availableParallelism()), heavyMinCalls: 100 });
    expect(loadConfig({ HEAVY_OPERATION_CONCURRENCY: '1', HEAVY_OPERATION_MIN_CALLS: '500' }).limits.admission).toEqual({ heavyConcurrency: 1, heavyMinCalls: 500 });
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ UPSTREAM_BASE_URL: 'ftp://x' }, 'UPSTREAM_BASE_URL'],
    [{ UPSTREAM_BASE_URL: 'not a url' }, 'UPSTREAM_BASE_URL'],
    [{ SEARCH_URL: 'http://user:pw@search' }, 'SEARCH_URL'],
    [{ NETGRAPH_BATCHING: 'maybe' }, 'NETGRAPH_BATCHING'],
    [{ NETGRAPH_EXECUTOR: 'compiled' }, 'NETGRAPH_EXECUTOR'],
    [{ SANDBOX_SEED: 'huge' }, 'SANDBOX_SEED'],
    [{ UPSTREAM_RETRY_ATTEMPTS: '0' }, 'UPSTREAM_RETRY_ATTEMPTS'],
    [{ UPSTREAM_CONNECT_TIMEOUT_MS: '-5' }, 'UPSTREAM_CONNECT_TIMEOUT_MS'],
    [{ SEARCH_USERNAME: 'svc' }, 'SEARCH_PASSWORD'],
    [{ HOST: 'a b' }, 'HOST'],
    [{ POLL_INTERVAL_MS: '0' }, 'POLL_INTERVAL_MS'],
    [{ POLL_INTERVAL_MS: '5000', POLL_MAX_INTERVAL_MS: '1000' }, 'POLL_MAX_INTERVAL_MS'],
    [{ POLL_MAX_ERRORS: '0' }, 'POLL_MAX_ERRORS'],
    [{ POLL_NOT_FOUND_GRACE_MS: 'soon' }, 'POLL_NOT_FOUND_GRACE_MS'],
    [{ MAX_SUBSCRIPTIONS_PER_CONNECTION: '0' }, 'MAX_SUBSCRIPTIONS_PER_CONNECTION'],
    [{ MAX_POLLERS: '-1' }, 'MAX_POLLERS'],
    [{ HEAVY_OPERATION_CONCURRENCY: '0' }, 'HEAVY_OPERATION_CONCURRENCY'],
    [{ HEAVY_OPERATION_MIN_CALLS: 'many' }, 'HEAVY_OPERATION_MIN_CALLS'],
  ])('rejects %j with a one-line message naming %s', (env, name) => {
    const message = configError(env);
    expect(message.startsWith(name)).toBe(true);
    expect(message).not.toContain('\n');
  });

  it('never puts the search password in a message', () => {
    expect(configError({ SEARCH_PASSWORD: 'hunter2' })).not.toContain('hunter2');
  });

  it('turns tracing on only with an OTLP endpoint; the traces endpoint wins over the base one', () => {
    expect(loadConfig({}).tracing).toBeNull();
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' }).tracing).toEqual({ tracesUrl: 'http://collector:4318/v1/traces', serviceName: 'netgraph' });
    expect(
      loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://traces.example/in', OTEL_SERVICE_NAME: 'netgraph-eu' }).tracing,
    ).toEqual({ tracesUrl: 'https://traces.example/in', serviceName: 'netgraph-eu' });
    expect(configError({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' })).toMatch(/^OTEL_EXPORTER_OTLP_ENDPOINT must be an http\(s\) URL/);
    expect(configError({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://u:p@collector/v1/traces' })).toBe('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT must not carry credentials');
    expect(configError({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SERVICE_NAME: 'a b' })).toMatch(/^OTEL_SERVICE_NAME must be/);
  });

  it('reads the fleet: REDIS_URL (redis or rediss, credentials, database), FLEET_TOKEN_KEY, shares and the quota', () => {
    expect(loadConfig({}).fleet).toMatchObject({ redisUrl: null, tokenKey: null, maxPollersPerCaller: 250, maxProvisioningsPerCaller: 25, provisioningsRetained: 1000, callerUpstreamCallsPerMinute: null });
    const fleet = loadConfig({
      REDIS_URL: 'rediss://gateway:s3cret@redis.internal:6380/2',
      FLEET_TOKEN_KEY: 'ab'.repeat(32),
      MAX_POLLERS: '40',
      MAX_PROVISIONINGS_PER_CALLER: '3',
      CALLER_UPSTREAM_CALLS_PER_MINUTE: '600',
    }).fleet;
    expect(fleet).toMatchObject({ redisUrl: 'rediss://gateway:s3cret@redis.internal:6380/2', maxPollersPerCaller: 10, maxProvisioningsPerCaller: 3, callerUpstreamCallsPerMinute: 600 });
    expect(fleet.tokenKey?.length).toBe(32);
    expect(loadConfig({ FLEET_TOKEN_KEY: Buffer.alloc(32, 7).toString('base64') }).fleet.tokenKey).toEqual(Buffer.alloc(32, 7));
  });

  it.each([
    [{ REDIS_URL: 'http://redis:6379' }, 'REDIS_URL'],
    [{ REDIS_URL: 'redis://redis:6379/zero' }, 'REDIS_URL'],
    [{ REDIS_URL: 'redis://' }, 'REDIS_URL'],
    [{ FLEET_TOKEN_KEY: 'short' }, 'FLEET_TOKEN_KEY'],
    [{ CALLER_UPSTREAM_CALLS_PER_MINUTE: '0' }, 'CALLER_UPSTREAM_CALLS_PER_MINUTE'],
    [{ MAX_PROVISIONINGS: '10', MAX_PROVISIONINGS_PER_CALLER: '11' }, 'MAX_PROVISIONINGS_PER_CALLER'],
  ])('rejects %j naming %s', (env, name) => {
    expect(configError(env).startsWith(name)).toBe(true);
  });

  it('never puts the Redis password or the token key in a message', () => {
    expect(configError({ REDIS_URL: 'redis://u:hunter2@redis:6379/x' })).not.toContain('hunter2');
    expect(configError({ FLEET_TOKEN_KEY: 'hunter2hunter2' })).not.toContain('hunter2');
  });
});
