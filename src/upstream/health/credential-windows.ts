/**
 * The windows a 429's `Retry-After` opens. A 429 is the platform limiting one credential, so its
 * window closes that API to that credential only (every replica, through the closure board), never
 * to the other callers: one token, or a stream of junk tokens, cannot shut everyone out. Keyed by
 * the credential's keyed hash (`UpstreamCall.credentialKey`), never the credential; bounded, so a
 * stream of tokens costs memory up to the bound (the oldest window is forgotten first: its
 * credential at worst hears one more 429).
 */
import { LRUCache } from 'lru-cache';
import type { Clock, UpstreamApi } from './apis';

/** Credentials with a window in force kept per process (the least recently used goes first past it). */
export const MAX_CREDENTIAL_WINDOWS = 10_000;

export class CredentialWindows {
  /** `api credentialKey` → epoch ms the window ends. */
  private readonly until: LRUCache<string, number>;

  constructor(
    private readonly now: Clock,
    max: number = MAX_CREDENTIAL_WINDOWS,
  ) {
    this.until = new LRUCache({ max });
  }

  /** Closes `api` to `credential` until `until` (a longer window in force stays). */
  close(api: UpstreamApi, credential: string, until: number): void {
    const key = `${api} ${credential}`;
    const current = this.until.get(key);
    if (current === undefined || current < until) this.until.set(key, until);
  }

  /** Ms left of `credential`'s window on `api`; 0 when none is in force. */
  remaining(api: UpstreamApi, credential: string): number {
    if (this.until.size === 0) return 0;
    const key = `${api} ${credential}`;
    const until = this.until.get(key);
    if (until === undefined) return 0;
    const left = until - this.now();
    if (left <= 0) this.until.delete(key);
    return Math.max(0, left);
  }

  /** Credentials with a window in force now (for the metrics). */
  count(): number {
    const now = this.now();
    let n = 0;
    for (const until of this.until.values()) if (until > now) n += 1;
    return n;
  }
}
