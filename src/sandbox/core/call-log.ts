/** Counts contract calls by `METHOD template` so tests can assert exact upstream call counts. */
export interface CallCounts {
  total: number;
  byRoute: Record<string, number>;
}

export class CallLog {
  private counts = new Map<string, number>();
  private total = 0;

  record(method: string, template: string): void {
    const key = `${method} ${template}`;
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    this.total += 1;
  }

  snapshot(): CallCounts {
    const byRoute: Record<string, number> = {};
    for (const [key, count] of [...this.counts.entries()].sort(([a], [b]) => a.localeCompare(b))) {
      byRoute[key] = count;
    }
    return { total: this.total, byRoute };
  }

  reset(): void {
    this.counts.clear();
    this.total = 0;
  }
}
