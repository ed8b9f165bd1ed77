import { availableParallelism } from 'node:os';
import { loadConfig, searchCredentialsOf, tracingOf } from '../../src/config';
import { configError } from '../helpers/config-error';

describe('loadConfig', () => {
  it('has documented defaults: sandbox mode on 127.0.0.1:4000', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      server: { executor: 'jit', port: 4000, host: '127.0.0.1', development: false },
      upstream: { baseUrl: null, searchUrl: null, retryAttempts: 3, sandboxSeed: 'demo' },
    });
    expect(searchCredentialsOf(config.upstream)).toBeNull();
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
      NETGRAPH_EXECUTOR: 'GraphQL-JS',
      SANDBOX_SEED: 'large',
      NODE_ENV: 'development',
    });
    expect(config).toMatchObject({
      server: { executor: 'graphql-js', port: 0, host: '0.0.0.0', development: true },
      upstream: { baseUrl: 'https://platform.example/api', searchUrl: 'https://search.example:9200', retryAttempts: 1, headersTimeoutMs: 250, sandboxSeed: 'large' },
    });
    expect(searchCredentialsOf(config.upstream)).toEqual({ username: 'svc', password: 'p w' });
  });

  it('offers no switch to turn batching off (a loader option only tests and the benchmark pass in): the old variable is refused, not ignored', () => {
    expect(() => loadConfig({ NETGRAPH_BATCHING: 'off' })).toThrow('NETGRAPH_BATCHING is not a setting of this gateway');
  });

  it('has documented subscription defaults, and reads them', () => {
    expect(loadConfig({}).subscriptions).toMatchObject({
      pollIntervalMs: 2000,
      pollMaxIntervalMs: 15_000,
      pollMaxErrors: 5,
      pollNotFoundGraceMs: 10_000,
      maxSubscriptionsPerConnection: 20,
      maxPollers: 1000,
    });
    const env = { POLL_INTERVAL_MS: '500', POLL_MAX_INTERVAL_MS: '4000', POLL_MAX_ERRORS: '2', POLL_NOT_FOUND_GRACE_MS: '0', MAX_SUBSCRIPTIONS_PER_CONNECTION: '3', MAX_POLLERS: '7' };
    expect(loadConfig(env).subscriptions).toMatchObject({ pollIntervalMs: 500, pollMaxIntervalMs: 4000, pollMaxErrors: 2, pollNotFoundGraceMs: 0, maxSubscriptionsPerConnection: 3, maxPollers: 7 });
    // An interval above the default ceiling lifts the ceiling with it.
    expect(loadConfig({ POLL_INTERVAL_MS: '30000' }).subscriptions).toMatchObject({ pollIntervalMs: 30_000, pollMaxIntervalMs: 30_000 });
  });

  it('has documented networkChanges pace bounds, and reads them', () => {
    expect(loadConfig({}).subscriptions).toMatchObject({ networkPollIntervalMs: 2000, networkPollMaxIntervalMs: 30_000 });
    expect(loadConfig({ NETWORK_POLL_INTERVAL_MS: '250', NETWORK_POLL_MAX_INTERVAL_MS: '5000' }).subscriptions).toMatchObject({ networkPollIntervalMs: 250, networkPollMaxIntervalMs: 5000 });
    expect(loadConfig({ NETWORK_POLL_INTERVAL_MS: '60000' }).subscriptions).toMatchObject({ networkPollIntervalMs: 60_000, networkPollMaxIntervalMs: 60_000 });
  });

  it('lets heavy operations take turns: one slot per core (at least 2) from 100 estimated calls, both configurable', () => {
    expect(loadConfig({}).limits.admission).toEqual({ heavyConcurrency: Math.max(2, availableParallelism()), heavyMinCalls: 100, heavyQueuePerCaller: 64 });
    expect(loadConfig({ HEAVY_OPERATION_CONCURRENCY: '1', HEAVY_OPERATION_MIN_CALLS: '500' }).limits.admission).toEqual({ heavyConcurrency: 1, heavyMinCalls: 500, heavyQueuePerCaller: 64 });
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ UPSTREAM_BASE_URL: 'ftp://x' }, 'UPSTREAM_BASE_URL'],
    [{ UPSTREAM_BASE_URL: 'not a url' }, 'UPSTREAM_BASE_URL'],
    [{ SEARCH_URL: 'http://user:pw@search' }, 'SEARCH_URL'],
    [{ NETGRAPH_EXECUTOR: 'compiled' }, 'NETGRAPH_EXECUTOR'],
    [{ SANDBOX_SEED: 'huge' }, 'SANDBOX_SEED'],
    [{ UPSTREAM_RETRY_ATTEMPTS: '0' }, 'UPSTREAM_RETRY_ATTEMPTS'],
    [{ UPSTREAM_CONNECT_TIMEOUT_MS: '-5' }, 'UPSTREAM_CONNECT_TIMEOUT_MS'],
    [{ SEARCH_USERNAME: 'svc' }, 'SEARCH_PASSWORD'],
    [{ HOST: 'a b' }, 'HOST'],
    [{ POLL_INTERVAL_MS: '0' }, 'POLL_INTERVAL_MS'],
    [{ POLL_INTERVAL_MS: '5000', POLL_MAX_INTERVAL_MS: '1000' }, 'POLL_MAX_INTERVAL_MS'],
    [{ NETWORK_POLL_INTERVAL_MS: '0' }, 'NETWORK_POLL_INTERVAL_MS'],
    [{ NETWORK_POLL_INTERVAL_MS: '5000', NETWORK_POLL_MAX_INTERVAL_MS: '1000' }, 'NETWORK_POLL_MAX_INTERVAL_MS'],
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

  describe('tracing (the standard OTEL_* variables)', () => {
    const base = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' };

    it('is on only with an OTLP endpoint; the traces endpoint wins over the base one', () => {
      expect(tracingOf(loadConfig({}).telemetry)).toBeNull();
      expect(tracingOf(loadConfig({ OTEL_TRACES_SAMPLER: 'always_on', OTEL_SERVICE_NAME: 'x' }).telemetry)).toBeNull();
      expect(tracingOf(loadConfig(base).telemetry)).toEqual({
        tracesUrl: 'http://collector:4318/v1/traces',
        headers: {},
        protocol: 'http/protobuf',
        compression: 'none',
        timeoutMs: 10_000,
        serviceName: 'netgraph',
        resourceAttributes: {},
        sampler: { name: 'parentbased_always_on', ratio: 1 },
      });
      expect(
        tracingOf(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://traces.example/in', OTEL_SERVICE_NAME: 'netgraph-eu' }).telemetry),
      ).toMatchObject({ tracesUrl: 'https://traces.example/in', serviceName: 'netgraph-eu' });
    });

    it('is off with OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none, whatever the endpoint', () => {
      expect(tracingOf(loadConfig({ ...base, OTEL_SDK_DISABLED: 'true' }).telemetry)).toBeNull();
      expect(tracingOf(loadConfig({ ...base, OTEL_TRACES_EXPORTER: 'none' }).telemetry)).toBeNull();
      expect(tracingOf(loadConfig({ ...base, OTEL_SDK_DISABLED: 'false', OTEL_TRACES_EXPORTER: 'otlp' }).telemetry)).not.toBeNull();
    });

    it('reads headers and resource attributes as key=value lists, percent-decoded; the traces headers win per key', () => {
      const tracing = tracingOf(loadConfig({
        ...base,
        OTEL_EXPORTER_OTLP_HEADERS: 'x-api-key=abc%3D%3D, authorization=Basic%20dTpw ,',
        OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'x-api-key=traces-key',
        OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=prod,service.name=from-attributes,k8s.pod.name=gw%2D1',
      }).telemetry);
      expect(tracing?.headers).toEqual({ 'x-api-key': 'traces-key', authorization: 'Basic dTpw' });
      expect(tracing?.resourceAttributes).toEqual({ 'deployment.environment': 'prod', 'service.name': 'from-attributes', 'k8s.pod.name': 'gw-1' });
      // service.name among the attributes names the service unless OTEL_SERVICE_NAME does.
      expect(tracing?.serviceName).toBe('from-attributes');
      expect(tracingOf(loadConfig({ ...base, OTEL_SERVICE_NAME: 'named', OTEL_RESOURCE_ATTRIBUTES: 'service.name=other' }).telemetry)?.serviceName).toBe('named');
    });

    it('reads protocol, compression and timeout from the traces variable first, then the general one', () => {
      expect(tracingOf(loadConfig({ ...base, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_EXPORTER_OTLP_COMPRESSION: 'gzip', OTEL_EXPORTER_OTLP_TIMEOUT: '2500' }).telemetry)).toMatchObject({
        protocol: 'http/json',
        compression: 'gzip',
        timeoutMs: 2500,
      });
      expect(
        tracingOf(loadConfig({ ...base, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf', OTEL_EXPORTER_OTLP_TRACES_COMPRESSION: 'gzip' }).telemetry),
      ).toMatchObject({ protocol: 'http/protobuf', compression: 'gzip' });
    });

    it('names the sampler, with its ratio for the ratio samplers', () => {
      expect(tracingOf(loadConfig({ ...base, OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.25' }).telemetry)?.sampler).toEqual({ name: 'parentbased_traceidratio', ratio: 0.25 });
      expect(tracingOf(loadConfig({ ...base, OTEL_TRACES_SAMPLER: 'traceidratio' }).telemetry)?.sampler).toEqual({ name: 'traceidratio', ratio: 1 });
      expect(tracingOf(loadConfig({ ...base, OTEL_TRACES_SAMPLER: 'always_off', OTEL_TRACES_SAMPLER_ARG: 'ignored' }).telemetry)?.sampler).toEqual({ name: 'always_off', ratio: 1 });
    });

    it.each([
      [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' }, /^OTEL_EXPORTER_OTLP_ENDPOINT must be an http\(s\) URL/],
      [{ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://u:p@collector/v1/traces' }, /^OTEL_EXPORTER_OTLP_TRACES_ENDPOINT must not carry credentials$/],
      [{ ...base, OTEL_SERVICE_NAME: 'a b' }, /^OTEL_SERVICE_NAME must be/],
      [{ ...base, OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }, /^OTEL_EXPORTER_OTLP_PROTOCOL must be one of http\/protobuf, http\/json/],
      [{ ...base, OTEL_EXPORTER_OTLP_TRACES_COMPRESSION: 'br' }, /^OTEL_EXPORTER_OTLP_TRACES_COMPRESSION must be one of gzip, none/],
      [{ ...base, OTEL_EXPORTER_OTLP_TIMEOUT: '0' }, /^OTEL_EXPORTER_OTLP_TIMEOUT must be an integer/],
      [{ ...base, OTEL_TRACES_SAMPLER: 'jaeger_remote' }, /^OTEL_TRACES_SAMPLER must be one of/],
      [{ ...base, OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '1.5' }, /^OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1/],
      [{ ...base, OTEL_RESOURCE_ATTRIBUTES: 'novalue' }, /^OTEL_RESOURCE_ATTRIBUTES must be a list of key=value pairs/],
      [{ ...base, OTEL_SDK_DISABLED: 'yes' }, /^OTEL_SDK_DISABLED must be one of true, false/],
    ])('rejects %j', (env, message) => {
      expect(configError(env)).toMatch(message);
    });

    it('never puts a header value in a message', () => {
      for (const headers of ['x-key=s3cret%ZZ', '=s3cret', 'bad key=s3cret']) {
        const message = configError({ ...base, OTEL_EXPORTER_OTLP_HEADERS: headers });
        expect(message).toMatch(/^OTEL_EXPORTER_OTLP_HEADERS/);
        expect(message).not.toContain('s3cret');
      }
    });
  });

  it('reads the fleet: REDIS_URL (redis or rediss, credentials, database), FLEET_TOKEN_KEY, shares and the quota', () => {
    expect(loadConfig({})).toMatchObject({
      fleet: { redisUrl: null, tokenKey: null },
      subscriptions: { maxPollersPerCaller: 250 },
      provisioning: { maxProvisioningsPerCaller: 25, provisioningsRetained: 1000 },
      limits: { callerUpstreamCallsPerMinute: null },
    });
    const config = loadConfig({
      REDIS_URL: 'rediss://gateway:s3cret@redis.internal:6380/2',
      FLEET_TOKEN_KEY: 'ab'.repeat(32),
      MAX_POLLERS: '40',
      MAX_PROVISIONINGS_PER_CALLER: '3',
      CALLER_UPSTREAM_CALLS_PER_MINUTE: '600',
    });
    expect(config).toMatchObject({
      fleet: { redisUrl: 'rediss://gateway:s3cret@redis.internal:6380/2' },
      subscriptions: { maxPollersPerCaller: 10 },
      provisioning: { maxProvisioningsPerCaller: 3 },
      limits: { callerUpstreamCallsPerMinute: 600 },
    });
    expect(config.fleet.tokenKey?.length).toBe(32);
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
