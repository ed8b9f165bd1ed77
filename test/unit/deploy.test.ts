/**
 * The Dockerfile and deploy/kubernetes.yaml, checked as text and YAML (Docker does not run here):
 * the image runs as non-root with a health check on the gateway's liveness route, it carries every
 * file the running gateway reads, and the manifest's probes, ports and variables match the gateway.
 */
import { GATEWAY_NODE_FLAGS } from '../../src/server/node-flags';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, normalize, relative } from 'node:path';
import { loadAll } from 'js-yaml';
import { Registry } from 'prom-client';
import { createHealthRoutes } from '../../src/server/health';
import { loadConfig } from '../../src/config';
import { SETTING_NAMES } from '../../src/settings';

const root = join(__dirname, '..', '..');
const dockerfile = readFileSync(join(root, 'Dockerfile'), 'utf8');
/** Instructions with their continuation lines joined, comments dropped. */
const instructions = dockerfile
  .replace(/\\\n/g, ' ')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l !== '' && !l.startsWith('#'));
const stages = instructions.reduce<string[][]>((acc, line) => {
  if (/^FROM\s/i.test(line)) acc.push([]);
  acc[acc.length - 1]?.push(line);
  return acc;
}, []);
const runtime = stages[stages.length - 1] ?? [];
const build = stages[0] ?? [];
const arg = (line: string): string => line.replace(/^\S+\s+/, '');
const env: Record<string, string> = Object.fromEntries(
  runtime.filter((l) => /^ENV\s/.test(l)).flatMap((l) => [...arg(l).matchAll(/(\w+)=(\S+)/g)].map((m) => [m[1] ?? '', m[2] ?? ''])),
);
/** Sources of the runtime stage's COPY lines (not from another stage). */
const copied = runtime.filter((l) => /^COPY\s/.test(l) && !l.includes('--from=')).flatMap((l) => arg(l).split(/\s+/).slice(0, -1));
const covered = (path: string): boolean => copied.some((c) => path === c || path.startsWith(`${c.replace(/\/$/, '')}/`));
const fromBench = (path: string): boolean => path === 'bench' || path.startsWith('bench/');
/** Files outside web/map/ that the map page's code imports (relative to the repository root). */
const mapImports = readdirSync(join(root, 'web', 'map'))
  .filter((f) => f.endsWith('.ts'))
  .flatMap((file) =>
    [...readFileSync(join(root, 'web', 'map', file), 'utf8').matchAll(/from '(\.{1,2}\/[^']+)'/g)]
      .map((m) => ({ file, target: relative(root, normalize(join(root, 'web', 'map', m[1] ?? ''))) }))
      .filter(({ target }) => !target.startsWith('web/map/')),
  );
const routes = Object.keys(createHealthRoutes({ readiness: {}, mode: 'upstream', metrics: new Registry() }));

interface K8sDoc {
  kind: string;
  metadata: { name: string };
  data?: Record<string, string>;
  stringData?: Record<string, string>;
  spec?: Record<string, unknown>;
}
const docs = loadAll(readFileSync(join(root, 'deploy', 'kubernetes.yaml'), 'utf8')) as K8sDoc[];
const doc = (kind: string, name = 'netgraph'): K8sDoc => {
  const found = docs.find((d) => d.kind === kind && d.metadata.name === name);
  if (!found) throw new Error(`deploy/kubernetes.yaml has no ${kind} named ${name}`);
  return found;
};
interface Probe {
  httpGet: { path: string; port: string | number };
}
interface Container {
  ports: Array<{ name: string; containerPort: number }>;
  env: Array<{ name: string; value: string }>;
  envFrom: Array<{ configMapRef?: { name: string }; secretRef?: { name: string } }>;
  readinessProbe: Probe;
  livenessProbe: Probe;
  resources: { requests: { cpu: string; memory: string }; limits: { memory: string } };
}
const pod = (doc('Deployment').spec as { template: { spec: { containers: Container[]; securityContext: { runAsNonRoot: boolean } } } }).template.spec;
const container = pod.containers[0] as Container;
const podAnnotations = (doc('Deployment').spec as { template: { metadata: { annotations: Record<string, string> } } }).template.metadata.annotations;

describe('Dockerfile', () => {
  it('builds in one stage and runs production dependencies only in another', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    expect(build.some((l) => /^RUN .*npm ci\b/.test(l))).toBe(true);
    expect(build.some((l) => /^RUN .*npm run build\b/.test(l))).toBe(true);
    expect(runtime.some((l) => /^RUN .*npm ci\b.*--omit=dev/.test(l))).toBe(true);
    expect(runtime.some((l) => /^COPY --from=\S+ \/app\/dist /.test(l))).toBe(true);
  });

  it('runs as a non-root user with NODE_ENV=production on 0.0.0.0', () => {
    const users = runtime.filter((l) => /^USER\s/.test(l)).map(arg);
    expect(users).toHaveLength(1);
    expect(users[0]).not.toMatch(/^(root|0)(:|$)/);
    expect(env).toMatchObject({ NODE_ENV: 'production', HOST: '0.0.0.0' });
    expect(loadConfig({ ...env, UPSTREAM_BASE_URL: 'https://platform.example' }).server.host).toBe('0.0.0.0');
  });

  it('never serves the demo sandbox unless told: it needs UPSTREAM_BASE_URL, or SANDBOX=on given at run time', () => {
    expect(env).not.toHaveProperty('UPSTREAM_BASE_URL');
    expect(env).not.toHaveProperty('SANDBOX');
    expect(() => loadConfig(env)).toThrow(/^UPSTREAM_BASE_URL must be set when HOST \(0\.0\.0\.0\) is not a loopback address; SANDBOX=on/);
    expect(loadConfig({ ...env, UPSTREAM_BASE_URL: 'https://platform.example' }).upstream.baseUrl).toBe('https://platform.example');
    expect(loadConfig({ ...env, SANDBOX: 'on' }).upstream.baseUrl).toBeNull();
  });

  it('exposes the port the gateway listens on and checks its liveness route', () => {
    const port = String(loadConfig({ ...env, UPSTREAM_BASE_URL: 'https://platform.example' }).server.port);
    expect(runtime.filter((l) => /^EXPOSE\s/.test(l)).map(arg)).toEqual([port]);
    const healthcheck = runtime.find((l) => /^HEALTHCHECK\s/.test(l)) ?? '';
    expect(healthcheck).toContain('/healthz');
    expect(routes).toContain('/healthz');
  });

  it('starts the compiled entry point the build writes', () => {
    const tsconfig = JSON.parse(readFileSync(join(root, 'tsconfig.build.json'), 'utf8')) as { compilerOptions: { outDir: string; rootDir: string } };
    expect(tsconfig.compilerOptions).toMatchObject({ outDir: 'dist', rootDir: '.' });
    expect(existsSync(join(root, 'src', 'main.ts'))).toBe(true);
    const flags = GATEWAY_NODE_FLAGS.map((f) => `"${f}", `).join('');
    expect(runtime.find((l) => /^CMD\s/.test(l))).toContain(`["node", ${flags}"dist/src/main.js"]`);
  });

  it('npm start runs the gateway with the same V8 flags as the image and the benchmark', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts['start']).toContain(['node', ...GATEWAY_NODE_FLAGS, 'dist/src/main.js'].join(' '));
  });

  it('copies every file the running gateway reads: package.json, schema/, the MCP operations, the map page and what it imports', () => {
    for (const needed of ['package.json', 'schema', 'operations/mcp/list-networks.graphql', 'web/map/main.ts', 'web/map/map.css']) expect(covered(needed)).toBe(true);
    // The map bundle is built at run time from web/map/: every file it imports from outside must be in the image.
    for (const { file, target } of mapImports) expect({ file, target, covered: covered(target) }).toEqual({ file, target, covered: true });
  });

  it('holds no benchmark code: the build compiles src/ alone, and the image takes nothing from bench/ the map does not import', () => {
    const tsconfig = JSON.parse(readFileSync(join(root, 'tsconfig.build.json'), 'utf8')) as { include: string[] };
    expect(tsconfig.include).toEqual(['src']);
    expect(build.filter((l) => /^COPY\s/.test(l)).flatMap((l) => arg(l).split(/\s+/).slice(0, -1)).filter(fromBench)).toEqual([]);
    const mapNeeds = mapImports.map((i) => i.target).filter(fromBench);
    expect(copied.filter(fromBench).sort()).toEqual(mapNeeds.sort());
  });
});

describe('deploy/kubernetes.yaml', () => {
  it('probes readiness on /readyz and liveness on /healthz, routes the gateway serves', () => {
    expect(container.readinessProbe.httpGet.path).toBe('/readyz');
    expect(container.livenessProbe.httpGet.path).toBe('/healthz');
    expect(routes).toEqual(expect.arrayContaining(['/readyz', '/healthz']));
    for (const probe of [container.readinessProbe, container.livenessProbe]) expect(probe.httpGet.port).toBe('http');
  });

  it('opens the container port the gateway listens on, and the Service targets it', () => {
    const listen = Object.fromEntries(container.env.map((e) => [e.name, e.value]));
    const config = loadConfig({ ...listen, ...doc('ConfigMap').data });
    expect(config.server.host).toBe('0.0.0.0');
    expect(container.ports).toEqual([
      { name: 'http', containerPort: config.server.port },
      { name: 'metrics', containerPort: config.server.metricsPort },
    ]);
    // Prometheus scrapes the metrics port; the Service (below) exposes the API's port only.
    expect(podAnnotations['prometheus.io/port']).toBe(String(config.server.metricsPort));
    expect(String(config.server.port)).toBe(env['PORT']);
    expect(doc('Service').spec).toMatchObject({ selector: { 'app.kubernetes.io/name': 'netgraph' }, ports: [{ targetPort: 'http' }] });
  });

  it('runs as non-root with resources set', () => {
    expect(pod.securityContext.runAsNonRoot).toBe(true);
    expect(container.resources.requests).toEqual({ cpu: expect.any(String), memory: expect.any(String) });
    expect(container.resources.limits.memory).toEqual(expect.any(String));
  });

  it('takes configuration from the ConfigMap and search credentials from the Secret, all variables the gateway validates', () => {
    const configMap = doc('ConfigMap');
    const secret = doc('Secret', 'netgraph-search');
    const fleet = doc('Secret', 'netgraph-fleet');
    expect(container.envFrom).toEqual([{ configMapRef: { name: configMap.metadata.name } }, { secretRef: { name: secret.metadata.name } }, { secretRef: { name: fleet.metadata.name } }]);
    expect(Object.keys(configMap.data ?? {})).toContain('UPSTREAM_BASE_URL');
    expect(Object.keys(secret.stringData ?? {}).sort()).toEqual(['SEARCH_PASSWORD', 'SEARCH_USERNAME']);
    expect(Object.keys(fleet.stringData ?? {}).sort()).toEqual(['FLEET_TOKEN_KEY', 'REDIS_URL']);
    for (const name of [...Object.keys(configMap.data ?? {}), ...Object.keys(secret.stringData ?? {}), ...Object.keys(fleet.stringData ?? {}), ...container.env.map((e) => e.name)]) {
      expect({ name, read: SETTING_NAMES.has(name) }).toEqual({ name, read: true });
    }
    // The manifest's values pass the gateway's own validation, but for its example key, which is public and refused until replaced.
    expect(() => loadConfig({ ...configMap.data, ...secret.stringData, ...fleet.stringData })).toThrow(/^FLEET_TOKEN_KEY is the example key/);
    expect(() => loadConfig({ ...configMap.data, ...secret.stringData, ...fleet.stringData, FLEET_TOKEN_KEY: 'ab'.repeat(32) })).not.toThrow();
  });

  it('runs the Redis the replicas share, where REDIS_URL points, with the password REDIS_URL carries', () => {
    const redisUrl = new URL(doc('Secret', 'netgraph-fleet').stringData?.['REDIS_URL'] ?? '');
    const service = doc('Service', 'netgraph-redis');
    expect(redisUrl.hostname).toBe(service.metadata.name);
    const servicePorts = (service.spec as { ports: Array<{ port: number; targetPort: string }> }).ports;
    expect(servicePorts.map((p) => String(p.port))).toContain(redisUrl.port);
    const redisPod = (doc('Deployment', 'netgraph-redis').spec as { template: { spec: { containers: Array<{ args: string[]; ports: Array<{ name: string; containerPort: number }> }> } } }).template.spec;
    const redis = redisPod.containers[0];
    expect(redis?.ports).toEqual([{ name: servicePorts[0]?.targetPort, containerPort: Number(redisUrl.port) }]);
    // No persistence: the fleet writes its state back when Redis restarts empty.
    expect(redis?.args.join(' ')).toMatch(/--save\s+--appendonly no/);
    expect(decodeURIComponent(redisUrl.password)).toBe(doc('Secret', 'netgraph-redis').stringData?.['REDIS_PASSWORD']);
  });

  it('serves a platform, never the demo sandbox: the pod listens on 0.0.0.0 with UPSTREAM_BASE_URL set', () => {
    const configMap = doc('ConfigMap').data ?? {};
    const listen = Object.fromEntries(container.env.map((e) => [e.name, e.value]));
    expect(configMap['UPSTREAM_BASE_URL']?.trim()).toMatch(/^https?:\/\/\S+$/);
    expect({ ...configMap, ...listen }).not.toHaveProperty('SANDBOX');
    expect(loadConfig({ ...configMap, ...listen }).upstream.baseUrl).not.toBeNull();
    // Without the ConfigMap's upstream the pod would not start at all.
    expect(() => loadConfig(listen)).toThrow(/^UPSTREAM_BASE_URL must be set/);
  });

  it('scales the Deployment on CPU', () => {
    expect(doc('HorizontalPodAutoscaler').spec).toMatchObject({
      scaleTargetRef: { kind: 'Deployment', name: doc('Deployment').metadata.name },
      metrics: [{ type: 'Resource', resource: { name: 'cpu' } }],
    });
  });
});
