/**
 * The gateway's /metrics: prom-client's registry (gauges, the rare counters, Node's process
 * metrics) and the per-request series of this folder, written as one exposition.
 */
import { Registry } from 'prom-client';
import { Counter } from './counter';
import { Histogram, type HistogramConfig } from './histogram';
import type { MetricConfig } from './series';

interface Rendered {
  readonly name: string;
  render(): string;
}

export class Metrics {
  /** For prom-client metrics (`registers: [metrics.registry]`). */
  readonly registry = new Registry();
  private readonly own: Rendered[] = [];

  histogram<L extends string>(config: HistogramConfig<L>): Histogram<L> {
    return this.add(new Histogram(config));
  }

  counter<L extends string>(config: MetricConfig<L>): Counter<L> {
    return this.add(new Counter(config));
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /** Every series in Prometheus text format: prom-client's first, then ours, as prom-client joins them. */
  async text(): Promise<string> {
    const parts: string[] = [];
    if (this.registry.getMetricsAsArray().length > 0) parts.push((await this.registry.metrics()).replace(/\n$/, ''));
    for (const metric of this.own) parts.push(metric.render());
    return `${parts.join('\n\n')}\n`;
  }

  private add<M extends Rendered>(metric: M): M {
    if (this.own.some((m) => m.name === metric.name) || this.registry.getSingleMetric(metric.name) !== undefined) {
      throw new Error(`A metric with the name ${metric.name} has already been registered.`);
    }
    this.own.push(metric);
    return metric;
  }
}
