/**
 * HS256 JWTs signed by the sandbox itself (node:crypto only). Identity in `sub`.
 * Verification rejects malformed tokens, bad signatures, expired ones (`exp`, seconds) and
 * revoked ones (`revoke`: the platform withdrawing a token before it expires).
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export type Claims = Record<string, unknown>;

const HEADER = base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));

function base64url(input: string | Buffer): string {
  return Buffer.from(input).toString('base64url');
}

export class TokenService {
  private readonly secret: Buffer;
  private readonly revoked = new Set<string>();

  constructor(
    readonly issuer: string,
    secret?: Buffer,
  ) {
    this.secret = secret ?? randomBytes(32);
  }

  /** Signs the claims; `iat`, `iss` and (unless given) `exp` = now + lifetime are added. */
  sign(claims: Claims, lifetimeSeconds = 24 * 3600): string {
    const now = Math.floor(Date.now() / 1000);
    const payload = { iss: this.issuer, iat: now, exp: now + lifetimeSeconds, ...claims };
    const body = `${HEADER}.${base64url(JSON.stringify(payload))}`;
    return `${body}.${this.signature(body)}`;
  }

  /** Withdraws a token: from now on it is refused as an expired one is. */
  revoke(token: string): void {
    this.revoked.add(token);
  }

  /** The claims of a valid, unexpired, unrevoked token; null for anything else. */
  verify(token: string): Claims | null {
    if (this.revoked.has(token)) return null;
    const parts = token.split('.');
    if (parts.length !== 3) return null;
    const [header, payload, signature] = parts as [string, string, string];
    const expected = Buffer.from(this.signature(`${header}.${payload}`));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
    let claims: unknown;
    try {
      claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    } catch {
      return null;
    }
    if (typeof claims !== 'object' || claims === null || Array.isArray(claims)) return null;
    const record = claims as Claims;
    const exp = record['exp'];
    if (typeof exp === 'number' && exp * 1000 <= Date.now()) return null;
    return record;
  }

  private signature(data: string): string {
    return createHmac('sha256', this.secret).update(data).digest('base64url');
  }
}
