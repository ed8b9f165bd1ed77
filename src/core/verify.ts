/**
 * Verifies a bearer with the platform once and remembers the verdict briefly: the identity
 * behind an accepted token (its organization and, for a JWT, its `sub`), or the refusal.
 *
 * - The `Authorization` value is normalized first (src/core/caller.ts): one token spelt several
 *   ways is one caller, one hash, one identity.
 * - Verdicts are keyed by a keyed hash (HMAC-SHA-256) of the token, never the token, in this
 *   process and (when the fleet shares state) in a `VerdictStore` every replica reads.
 * - A verdict expires at a time fixed when the platform was asked (`ttlMs` after, `refusedTtlMs`
 *   for a refusal), wherever it is read from: a replica that reads it from the store keeps it
 *   until that time, never a fresh period. `isCurrent` tells the HTTP cache whether a token's
 *   acceptance still holds (a cached read is served only then).
 * - Concurrent verifications of one token share one call.
 * - An outage is not a verdict: nothing is cached, the caller is told UPSTREAM_UNAVAILABLE.
 *
 * The identity key is the same for every token of one person: a hash of organization and
 * subject. A token that is not a JWT is its own identity within its organization (a keyed hash
 * of it).
 */
import { createHash, createHmac } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { GatewayError } from '../errors/codes';
import { normalizeAuthorization, type Identity, type IdentityVerifier } from './caller';

/** What the platform said about a token. */
export type Verdict = { accepted: true; identity: Identity } | { accepted: false; code: 'UNAUTHENTICATED' | 'FORBIDDEN' };

/** What identifying a token asks the platform: its organization, or a refusal with the HTTP status. */
export type Identification = { organizationId: string } | { refused: 401 | 403 | 404 };

/** A verdict and when it runs out (ms since the epoch): fixed when the platform was asked. */
export interface StoredVerdict {
  verdict: Verdict;
  expiresAt: number;
}

/**
 * Where verdicts outlive this process's memory (the fleet's Redis); answers null when it does not
 * know, or when what it holds does not prove it was written by this fleet for this token hash.
 */
export interface VerdictStore {
  get(tokenHash: string): Promise<StoredVerdict | null>;
  set(tokenHash: string, verdict: Verdict, expiresAt: number): Promise<void>;
}

export interface VerifierOptions {
  /** The HMAC key tokens are hashed with (shared by the fleet when verdicts are). */
  hashKey: Buffer;
  /** Asks the platform (`GET /identity/v1/organization` with the token); throws on an outage. */
  identify(authorization: string): Promise<Identification>;
  ttlMs: number;
  refusedTtlMs: number;
  /** The fleet's verdicts; none: this process's memory only. */
  store?: VerdictStore | null;
  /** Told each time the platform is asked (metrics, tests). */
  onIdentify?(outcome: 'accepted' | 'refused' | 'unavailable'): void;
  /** Verdicts kept in this process. @default 10000 */
  maxLocal?: number;
  now?(): number;
}

export interface CallerVerifier extends IdentityVerifier {
  /** The keyed hash verdicts are stored under (of the normalized value). */
  tokenHash(authorization: string): string;
  /** Whether this process holds an acceptance of the token that has not run out (no call, no await). */
  isCurrent(authorization: string): boolean;
}

/** The JWT's `sub`, read without checking the signature: only asked once the platform accepted the token. */
export function jwtSubject(authorization: string): string | null {
  const token = /^Bearer\s+(\S+)$/i.exec(authorization.trim())?.[1];
  const parts = token?.split('.');
  if (parts?.length !== 3 || parts[1] === undefined) return null;
  try {
    const claims: unknown = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8'));
    if (typeof claims !== 'object' || claims === null || Array.isArray(claims)) return null;
    const sub: unknown = (claims as Record<string, unknown>)['sub'];
    return typeof sub === 'string' && sub !== '' && sub.length <= 256 ? sub : null;
  } catch {
    return null;
  }
}

/** Identity of a token the platform accepted for `organizationId`. */
export function identityOf(organizationId: string, subject: string | null, tokenHash: string): Identity {
  const who = subject !== null ? `sub\0${subject}` : `token\0${tokenHash}`;
  const key = `id:${createHash('sha256').update(`${organizationId}\0${who}`).digest('hex').slice(0, 32)}`;
  return { key, organizationId, subject };
}

const REFUSAL_TEXT: Record<Extract<Verdict, { accepted: false }>['code'], string> = {
  UNAUTHENTICATED: 'the platform does not accept this token (identity check): send a valid one (Authorization: Bearer …)',
  FORBIDDEN: 'the platform names no organization for this token (identity check): nothing can be reserved for it',
};

export function createCallerVerifier(options: VerifierOptions): CallerVerifier {
  const now = options.now ?? Date.now;
  const local = new LRUCache<string, { verdict: Verdict; until: number }>({ max: options.maxLocal ?? 10_000 });
  const pending = new Map<string, Promise<Verdict>>();
  const hashOf = (normalized: string): string => createHmac('sha256', options.hashKey).update(normalized).digest('hex').slice(0, 40);
  const ttlOf = (verdict: Verdict): number => (verdict.accepted ? options.ttlMs : options.refusedTtlMs);

  function remember(hash: string, verdict: Verdict, until: number): void {
    if (until > now()) local.set(hash, { verdict, until });
  }

  async function ask(authorization: string, hash: string): Promise<Verdict> {
    const shared = await options.store?.get(hash).catch(() => null);
    if (shared && shared.expiresAt > now()) {
      // Kept until the time the platform's word runs out, and never longer than a fresh period
      // (a replica whose clock runs behind the writer's cannot stretch it further).
      remember(hash, shared.verdict, Math.min(shared.expiresAt, now() + ttlOf(shared.verdict)));
      return shared.verdict;
    }
    // The verdict's period starts when the platform is asked, not when it answered: a token
    // revoked while the check was on its way is bounded by this time too.
    const asked = now();
    let answer: Identification;
    try {
      answer = await options.identify(authorization);
    } catch (error) {
      options.onIdentify?.('unavailable');
      throw new GatewayError('UPSTREAM_UNAVAILABLE', `the platform could not verify the token now (${error instanceof Error ? error.message : 'no answer'}); try again`);
    }
    const verdict: Verdict =
      'refused' in answer
        ? { accepted: false, code: answer.refused === 401 ? 'UNAUTHENTICATED' : 'FORBIDDEN' }
        : { accepted: true, identity: identityOf(answer.organizationId, jwtSubject(authorization), hash) };
    options.onIdentify?.(verdict.accepted ? 'accepted' : 'refused');
    const expiresAt = asked + ttlOf(verdict);
    remember(hash, verdict, expiresAt);
    if (expiresAt > now()) await options.store?.set(hash, verdict, expiresAt).catch(() => undefined);
    return verdict;
  }

  /** `hash`: the hash of `authorization` normalized, the value the platform is asked about. */
  function verdictFor(authorization: string, hash: string): Promise<Verdict> {
    const known = local.get(hash);
    if (known && known.until > now()) return Promise.resolve(known.verdict);
    const running = pending.get(hash);
    if (running) return running;
    const started = ask(normalizeAuthorization(authorization) ?? '', hash).finally(() => pending.delete(hash));
    pending.set(hash, started);
    return started;
  }

  // The last Authorization value asked about and its hash: one caller asks about one token many
  // times (its request's verification, then each read the HTTP cache answers), and an HMAC costs
  // microseconds each time. The value never leaves the process; one entry, replaced by the next.
  let last: { authorization: string; hash: string } | null = null;
  const hashOfValue = (authorization: string): string => {
    if (last !== null && last.authorization === authorization) return last.hash;
    const hash = hashOf(normalizeAuthorization(authorization) ?? '');
    last = { authorization, hash };
    return hash;
  };

  return {
    tokenHash: hashOfValue,
    isCurrent(authorization) {
      const known = local.get(hashOfValue(authorization));
      return known !== undefined && known.verdict.accepted && known.until > now();
    },
    async verify(authorization) {
      const verdict = await verdictFor(authorization, hashOfValue(authorization));
      if (!verdict.accepted) throw new GatewayError(verdict.code, REFUSAL_TEXT[verdict.code]);
      return verdict.identity;
    },
  };
}
