/**
 * The demo sandbox only when asked for, and no setting silently ignored: what loadConfig refuses
 * (one line naming the variable, as for any bad value) and what it lets through.
 */
import { loadConfig } from '../../src/config';
import { configError } from '../helpers/config-error';

describe('the sandbox only when asked for', () => {
  it.each([['127.0.0.1'], ['::1'], ['localhost'], ['127.0.0.2']])('runs it with no upstream on the loopback HOST %s', (host) => {
    expect(loadConfig({ HOST: host }).upstream.baseUrl).toBeNull();
  });

  it('runs it by default: `npm start` with no variables serves the demo on 127.0.0.1', () => {
    expect(loadConfig({})).toMatchObject({ upstream: { baseUrl: null }, server: { host: '127.0.0.1' } });
  });

  it.each([[' '], [''], ['\t']])('refuses a blank UPSTREAM_BASE_URL (%j), even in production', (blank) => {
    const message = configError({ UPSTREAM_BASE_URL: blank, NODE_ENV: 'production' });
    expect(message).toMatch(/^UPSTREAM_BASE_URL is blank/);
    expect(message).not.toContain('\n');
  });

  it.each([['0.0.0.0'], ['::'], ['10.1.2.3'], ['gateway.internal']])('refuses no upstream on the non-loopback HOST %s, saying what to set', (host) => {
    const message = configError({ HOST: host });
    expect(message).toBe(`UPSTREAM_BASE_URL must be set when HOST (${host}) is not a loopback address; SANDBOX=on serves the demo sandbox there instead (demo only: it hands out an admin token)`);
  });

  it('serves the demo anywhere with SANDBOX=on, and never with SANDBOX=off', () => {
    expect(loadConfig({ HOST: '0.0.0.0', SANDBOX: 'on' }).upstream.baseUrl).toBeNull();
    expect(configError({ SANDBOX: 'off' })).toMatch(/^UPSTREAM_BASE_URL must be set \(SANDBOX=off/);
    expect(loadConfig({ SANDBOX: 'off', UPSTREAM_BASE_URL: 'https://platform.example' }).upstream.baseUrl).toBe('https://platform.example');
    expect(configError({ SANDBOX: 'on', UPSTREAM_BASE_URL: 'https://platform.example' })).toMatch(/^SANDBOX=on serves the demo sandbox instead of a platform/);
    expect(configError({ SANDBOX: 'yes' })).toMatch(/^SANDBOX must be one of on, off/);
  });

  it('serves a configured platform on any HOST', () => {
    expect(loadConfig({ HOST: '0.0.0.0', UPSTREAM_BASE_URL: 'https://platform.example/' }).upstream.baseUrl).toBe('https://platform.example');
  });
});

describe('misspelt settings', () => {
  it.each([
    ['UPSTREAM_BASEURL', 'UPSTREAM_BASE_URL'],
    ['UPSTRAEM_BASE_URL', 'UPSTREAM_BASE_URL'],
    ['upstream_base_url', 'UPSTREAM_BASE_URL'],
    ['UPSTREAM_BASE_URI', 'UPSTREAM_BASE_URL'],
    ['NETGRAPH_EXECUTR', 'NETGRAPH_EXECUTOR'],
    ['MAX_POLLER', 'MAX_POLLERS'],
    ['INTROSPECTON', 'INTROSPECTION'],
  ])('refuses %s, naming %s', (typo, meant) => {
    expect(configError({ [typo]: 'https://platform.example' })).toBe(`${typo} is not a setting of this gateway; did you mean ${meant}? (see the configuration table in README.md)`);
  });

  it('names the misspelling rather than the error it causes', () => {
    expect(configError({ HOST: '0.0.0.0', UPSTREAM_BASE_UR: 'https://platform.example' })).toMatch(/^UPSTREAM_BASE_UR is not a setting of this gateway; did you mean UPSTREAM_BASE_URL\?/);
  });

  it('refuses any unknown UPSTREAM_* or NETGRAPH_* variable', () => {
    expect(configError({ UPSTREAM_TOKEN: 'x' })).toMatch(/^UPSTREAM_TOKEN is not a setting of this gateway/);
    expect(configError({ NETGRAPH_MODE: 'demo' })).toMatch(/^NETGRAPH_MODE is not a setting of this gateway/);
  });

  it("lets through other programs' variables and Kubernetes' service variables (a Service named netgraph or upstream)", () => {
    const env = {
      HOME: '/home/node',
      HOSTNAME: 'netgraph-7d9f',
      PATH: '/usr/bin',
      NODE_VERSION: '20.20.0',
      OTEL_EXPORTER_OTLP_HEADERS: 'x-key=1',
      npm_config_cache: '/tmp',
      KUBERNETES_SERVICE_HOST: '10.0.0.1',
      NETGRAPH_SERVICE_HOST: '10.0.0.7',
      NETGRAPH_SERVICE_PORT: '4000',
      NETGRAPH_SERVICE_PORT_HTTP: '4000',
      NETGRAPH_PORT: 'tcp://10.0.0.7:4000',
      NETGRAPH_PORT_4000_TCP: 'tcp://10.0.0.7:4000',
      NETGRAPH_PORT_4000_TCP_ADDR: '10.0.0.7',
      UPSTREAM_PORT_443_TCP_PROTO: 'tcp',
    };
    expect(loadConfig(env).upstream.baseUrl).toBeNull();
  });
});

describe('probes and introspection', () => {
  it('shares probe rounds for 2 s by default, 0 to 60000 ms', () => {
    expect(loadConfig({}).server.probeCacheMs).toBe(2000);
    expect(loadConfig({ PROBE_CACHE_MS: '0' }).server.probeCacheMs).toBe(0);
    expect(configError({ PROBE_CACHE_MS: '60001' })).toMatch(/^PROBE_CACHE_MS must be an integer from 0 to 60000/);
  });

  it('keeps introspection on by default, off with INTROSPECTION=off', () => {
    expect(loadConfig({}).server.introspection).toBe(true);
    expect(loadConfig({ INTROSPECTION: 'OFF' }).server.introspection).toBe(false);
    expect(configError({ INTROSPECTION: 'no' })).toMatch(/^INTROSPECTION must be one of on, off/);
  });
});
