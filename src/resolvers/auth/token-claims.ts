/**
 * Decoding the payload of a JWT issued by masquerade, for display only: the signature is not
 * checked (the gateway never trusts these claims, it only shows them to the caller who got them).
 */
import { isObject } from '../../core/parse';

export function decodeJwtClaims(token: string): Record<string, unknown> | null {
  const payload = token.split('.')[1];
  if (payload === undefined || token.split('.').length !== 3) return null;
  try {
    const claims: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    return isObject(claims) ? claims : null;
  } catch {
    return null;
  }
}

/** `exp` (seconds since the epoch) as an RFC 3339 string; null when absent or not a number. */
export function expiryOf(claims: Record<string, unknown> | null): string | null {
  const exp = claims?.['exp'];
  return typeof exp === 'number' && Number.isFinite(exp) ? new Date(exp * 1000).toISOString() : null;
}
