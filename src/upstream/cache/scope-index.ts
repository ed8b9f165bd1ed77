/**
 * The cache's entries by scope (change-scope.ts `scopesOf`): a change visits the entries of the
 * scopes it reaches and nothing else, so its cost follows what it touched, not how much is held.
 * Kept by the store on every insert and every removal (eviction, replacement, deletion); a scope
 * left empty is dropped, so the index never outgrows the entries.
 */
export class ScopeIndex {
  private readonly byScope = new Map<string, Set<string>>();
  private count = 0;

  add(key: string, scopes: readonly string[]): void {
    for (const scope of scopes) {
      let keys = this.byScope.get(scope);
      if (keys === undefined) {
        keys = new Set();
        this.byScope.set(scope, keys);
      }
      if (!keys.has(key)) {
        keys.add(key);
        this.count += 1;
      }
    }
  }

  remove(key: string, scopes: readonly string[]): void {
    for (const scope of scopes) {
      const keys = this.byScope.get(scope);
      if (keys === undefined || !keys.delete(key)) continue;
      this.count -= 1;
      if (keys.size === 0) this.byScope.delete(scope);
    }
  }

  /** The keys filed under `scope`, as a copy (the caller deletes while it walks them). */
  keysIn(scope: string): string[] {
    const keys = this.byScope.get(scope);
    return keys === undefined ? [] : [...keys];
  }

  clear(): void {
    this.byScope.clear();
    this.count = 0;
  }

  /** Scopes held and (key, scope) pairs filed (tests, metrics). */
  get size(): { scopes: number; memberships: number } {
    return { scopes: this.byScope.size, memberships: this.count };
  }
}
