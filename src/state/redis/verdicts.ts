/**
 * The fleet's verdicts on bearer tokens (src/core/verify.ts): one key per keyed hash of a token,
 * `caller:<hmac>`, holding the identity the platform named (organization, the JWT's subject, the
 * identity key) or the refusal, expiring with the verdict. Never the token. While Redis is away,
 * each replica keeps its own verdicts (the verifier's memory) and asks the platform itself.
 */
import type { Identity } from '../../core/caller';
import type { Verdict, VerdictStore } from '../../core/verify';
import { PREFIX, type RedisLink } from './link';

const key = (tokenHash: string): string => `${PREFIX}caller:${tokenHash}`;

function parseVerdict(text: string): Verdict | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
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

export class RedisVerdicts implements VerdictStore {
  constructor(private readonly link: RedisLink) {}

  async get(tokenHash: string): Promise<Verdict | null> {
    if (!this.link.isUp) return null;
    const text = await this.link.client.get(key(tokenHash));
    return text === null ? null : parseVerdict(text);
  }

  async set(tokenHash: string, verdict: Verdict, ttlMs: number): Promise<void> {
    if (!this.link.isUp) return;
    await this.link.client.set(key(tokenHash), JSON.stringify(verdict), 'PX', ttlMs);
  }
}
