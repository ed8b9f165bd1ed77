/**
 * What the per-request series share: a label set resolved once to its slot (nested maps by
 * value, no hashing or key string per observation), and the Prometheus text format written as
 * prom-client writes it, so /metrics reads the same whichever of the two wrote a series.
 */

/** prom-client's escaping: backslash and newline in help texts, those and `"` in label values. */
export function escapeText(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
}

export function escapeLabelValue(value: string): string {
  return escapeText(value).replace(/"/g, '\\"');
}

/** `# HELP` and `# TYPE` lines of one metric. */
export function header(name: string, help: string, type: 'counter' | 'histogram'): string {
  const escaped = escapeText(name);
  return `# HELP ${escaped} ${escapeText(help)}\n# TYPE ${escaped} ${type}`;
}

export interface MetricConfig<L extends string> {
  name: string;
  help: string;
  /** In the order the exposition writes them. */
  labelNames: readonly L[];
}

class Node<S> {
  readonly next = new Map<string, Node<S>>();
  slot: S | undefined;
}

/** Slots by label set, in the order they were first used (the exposition's order, as prom-client's). */
export class LabelledSlots<L extends string, S> {
  private readonly root = new Node<S>();
  readonly inOrder: S[] = [];

  constructor(
    private readonly labelNames: readonly L[],
    /** Makes the slot of a new label set; `labels` is its text, `a="x",b="y"`, already escaped. */
    private readonly create: (labels: string) => S,
  ) {}

  slot(labels: Readonly<Record<L, string>>): S {
    let node = this.root;
    for (const name of this.labelNames) {
      const value = labels[name];
      let next = node.next.get(value);
      if (next === undefined) node.next.set(value, (next = new Node<S>()));
      node = next;
    }
    if (node.slot === undefined) {
      node.slot = this.create(this.labelNames.map((name) => `${name}="${escapeLabelValue(labels[name])}"`).join(','));
      this.inOrder.push(node.slot);
    }
    return node.slot;
  }
}
