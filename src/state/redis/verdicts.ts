/**
 * The fleet's verdicts on bearer tokens (src/core/verify.ts): one key per keyed hash of a token,
 * `caller:<hmac>`, holding the identity the platform named (organization, the JWT's subject, the
 * identity key) or the refusal, the time it runs out, and an HMAC (a key derived from
 * `FLEET_TOKEN_KEY` for verdicts) over the token hash, that time and the verdict. Never the token.
 *
 * Redis is not trusted with a verdict: one whose MAC does not hold (written by someone without the
 * key, or moved from another token's key), whose time is past, or that cannot be read is ignored
 * and counted, and the replica asks the platform itself. While Redis is away, each replica keeps
 * its own verdicts (the verifier's memory) and asks the platform itself.
 */
import type { Identity } from '../../core/caller';
import type { StoredVerdict, Verdict, VerdictStore } from '../../core/verify';
import { PREFIX, type RedisLink } from './link';
import { deriveKey, macFields, macFieldsMatch } from './seal';
import type { UntrustedSink } from './untrusted';

const key = (tokenHash: string): string => `${PREFIX}caller:${tokenHash}`;

function parseVerdict(value: unknown): Verdict | null {
  if (typeof value !== 'object' || value === null) return null;
  const v = value as Record<string, unknown>;
  if (v['accepted'] === false) return { accepted: false, code: v['code'] === 'FORBIDDEN' ? 'FORBIDDEN' : 'UNAUTHENTICATED' };
  const identity = v['identity'];
  if (v['accepted'] !== true || typeof identity !== 'object' || identity === null) return null;
  const i = identity as Record<string, unknown>;
  const { key: identityKey, organizationId, subject } = i;
  if (typeof identityKey !== 'string' || typeof organizationId !== 'string' || !(typeof subject === 'string' || subject === null)) return null;
  const parsed: Identity = { key: identityKey, organizationId, subject };
  return { accepted: true, identity: parsed };
}

/** What the MAC covers: the key's token hash, the expiry and the verdict's exact text. */
const covered = (tokenHash: string, expiresAt: number, text: string): string[] => ['verdict', tokenHash, String(expiresAt), text];

export class RedisVerdicts implements VerdictStore {
  private readonly macKey: Buffer;

  constructor(
    private readonly link: RedisLink,
    fleetKey: Buffer,
    private readonly untrusted: UntrustedSink,
    private readonly now: () => number = Date.now,
  ) {
    this.macKey = deriveKey(fleetKey, 'verdict');
  }

  async get(tokenHash: string): Promise<StoredVerdict | null> {
    if (!this.link.isUp) return null;
    const stored = await this.link.client.get(key(tokenHash));
    if (stored === null) return null;
    const opened = this.open(tokenHash, stored);
    if (opened === null) this.untrusted('verdict');
    // An authentic verdict past its time (this clock ahead of the writer's) is simply not known.
    return opened === null || opened.expiresAt <= this.now() ? null : opened;
  }

  async set(tokenHash: string, verdict: Verdict, expiresAt: number): Promise<void> {
    const ttlMs = expiresAt - this.now();
    if (!this.link.isUp || ttlMs <= 0) return;
    const text = JSON.stringify(verdict);
    const envelope = JSON.stringify({ verdict: text, expiresAt, mac: macFields(this.macKey, covered(tokenHash, expiresAt, text)) });
    await this.link.client.set(key(tokenHash), envelope, 'PX', ttlMs);
  }

  /** The verdict when its MAC holds; null otherwise. */
  private open(tokenHash: string, stored: string): StoredVerdict | null {
    let envelope: unknown;
    try {
      envelope = JSON.parse(stored);
    } catch {
      return null;
    }
    if (typeof envelope !== 'object' || envelope === null) return null;
    const { verdict: text, expiresAt, mac } = envelope as Record<string, unknown>;
    if (typeof text !== 'string' || typeof expiresAt !== 'number' || !Number.isSafeInteger(expiresAt)) return null;
    if (!macFieldsMatch(this.macKey, covered(tokenHash, expiresAt, text), mac)) return null;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return null;
    }
    const verdict = parseVerdict(value);
    return verdict === null ? null : { verdict, expiresAt };
  }
}
