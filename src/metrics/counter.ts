/** A Prometheus counter for series counted on every request (why not prom-client's: histogram.ts). */
import { header, LabelledSlots, type MetricConfig } from './series';

interface Slot {
  labels: string;
  value: number;
}

export class Counter<L extends string> {
  readonly name: string;
  private readonly help: string;
  private readonly slots: LabelledSlots<L, Slot>;

  constructor(config: MetricConfig<L>) {
    this.name = config.name;
    this.help = config.help;
    this.slots = new LabelledSlots(config.labelNames, (labels) => ({ labels, value: 0 }));
  }

  inc(labels: Readonly<Record<L, string>>, by = 1): void {
    if (!Number.isFinite(by) || by < 0) return;
    this.slots.slot(labels).value += by;
  }

  render(): string {
    const lines = [header(this.name, this.help, 'counter')];
    for (const { labels, value } of this.slots.inOrder) lines.push(`${this.name}${labels === '' ? '' : `{${labels}}`} ${value}`);
    return lines.join('\n');
  }
}
