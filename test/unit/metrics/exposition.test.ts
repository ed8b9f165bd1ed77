/**
 * The per-request series (src/metrics) against prom-client: fed the same observations, /metrics
 * must read byte for byte as prom-client writes it, so dashboards and scrapers see no change.
 */
import * as prom from 'prom-client';
import { Metrics } from '../../../src/metrics/registry';

const BUCKETS = [0.005, 0.01, 0.025, 0.1, 1];
// At a bound, between bounds, over every bound, zero, and values whose sums are not exact in binary.
const VALUES = [0.005, 0.0051, 0.3, 7, 0, 0.1, 0.2, 0.1, 1e-9];
// Label values a client could choose (operation names are bounded, but escaping must hold anyway).
const LABELS = [
  { service: 'rest-v1', status_class: '2xx' },
  { service: 'core-v2', status_class: '5xx' },
  { service: 'we"ird\\name', status_class: 'line\nbreak' },
  { service: 'rest-v1', status_class: '4xx' },
];

async function promText(register: (registry: prom.Registry) => void): Promise<string> {
  const registry = new prom.Registry();
  register(registry);
  return registry.metrics();
}

describe('per-request series read as prom-client writes them', () => {
  it('a histogram: cumulative buckets, +Inf, _sum and _count per label set, in first-use order, escaped', async () => {
    const config = { name: 'test_duration_seconds', help: 'Help with a \\ and a\nnewline.', labelNames: ['service', 'status_class'] as const, buckets: BUCKETS };
    const ours = new Metrics();
    const histogram = ours.histogram(config);
    const expected = await promText((registry) => {
      const theirs = new prom.Histogram({ ...config, buckets: [...BUCKETS], registers: [registry] });
      VALUES.forEach((value, i) => {
        const labels = LABELS[i % LABELS.length] ?? { service: '', status_class: '' };
        theirs.observe(labels, value);
        histogram.observe(labels, value);
      });
    });
    expect(await ours.text()).toBe(expected);
    expect(expected).toContain('test_duration_seconds_bucket{le="0.005",service="rest-v1",status_class="2xx"} 3');
  });

  it('a counter: one line per label set, increments of any size', async () => {
    const config = { name: 'test_operations_total', help: 'Operations.', labelNames: ['transport', 'operation'] as const };
    const ours = new Metrics();
    const counter = ours.counter(config);
    const expected = await promText((registry) => {
      const theirs = new prom.Counter({ ...config, registers: [registry] });
      for (const [transport, operation, by] of [['http', 'A', 1], ['ws', 'B', 2], ['http', 'A', 1], ['http', 'q"uote', 0.5]] as const) {
        theirs.inc({ transport, operation }, by);
        counter.inc({ transport, operation }, by);
      }
    });
    expect(await ours.text()).toBe(expected);
    expect(expected).toContain('test_operations_total{transport="http",operation="A"} 2');
  });

  it('a series never observed shows its HELP and TYPE only, as prom-client does', async () => {
    const ours = new Metrics();
    ours.histogram({ name: 'idle_seconds', help: 'Idle.', labelNames: ['a'], buckets: [1] });
    ours.counter({ name: 'idle_total', help: 'Idle.', labelNames: ['a'] });
    const expected = await promText((registry) => {
      new prom.Histogram({ name: 'idle_seconds', help: 'Idle.', labelNames: ['a'], buckets: [1], registers: [registry] });
      new prom.Counter({ name: 'idle_total', help: 'Idle.', labelNames: ['a'], registers: [registry] });
    });
    expect(await ours.text()).toBe(expected);
  });

  it("/metrics joins prom-client's registry (gauges, process metrics) and ours as one exposition", async () => {
    const ours = new Metrics();
    new prom.Gauge({ name: 'test_running', help: 'Running.', registers: [ours.registry] }).set(3);
    ours.counter({ name: 'test_total', help: 'Total.', labelNames: ['a'] }).inc({ a: 'x' });
    const expected = await promText((registry) => {
      new prom.Gauge({ name: 'test_running', help: 'Running.', registers: [registry] }).set(3);
      new prom.Counter({ name: 'test_total', help: 'Total.', labelNames: ['a'], registers: [registry] }).inc({ a: 'x' });
    });
    expect(await ours.text()).toBe(expected);
    expect(await new Metrics().text()).toBe(await new prom.Registry().metrics());
  });

  it('refuses a second metric of the same name, ours or prom-client\'s', () => {
    const ours = new Metrics();
    ours.counter({ name: 'twice_total', help: '.', labelNames: [] });
    expect(() => ours.histogram({ name: 'twice_total', help: '.', labelNames: [], buckets: [1] })).toThrow(/already been registered/);
    new prom.Gauge({ name: 'gauge_first', help: '.', registers: [ours.registry] });
    expect(() => ours.counter({ name: 'gauge_first', help: '.', labelNames: [] })).toThrow(/already been registered/);
  });

  it('does not count a value that is not a finite number (prom-client would throw into the request)', async () => {
    const ours = new Metrics();
    const histogram = ours.histogram({ name: 'h_seconds', help: '.', labelNames: ['a'], buckets: [1] });
    histogram.observe({ a: 'x' }, Number.NaN);
    histogram.observe({ a: 'x' }, Number.POSITIVE_INFINITY);
    histogram.observe({ a: 'x' }, 0.5);
    expect(await ours.text()).toContain('h_seconds_count{a="x"} 1');
    expect(await ours.text()).toContain('h_seconds_sum{a="x"} 0.5');
  });
});
