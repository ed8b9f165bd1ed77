/**
 * Pollers are shared per credential, never across credentials: they are keyed by a fingerprint of
 * the caller's Authorization value. The fingerprint is a hash prefix, so keys, logs and metrics
 * never hold the token itself.
 */
import { createHash } from 'node:crypto';

/** Owner fingerprint of requests without an Authorization header (their polls answer 401). */
export const ANONYMOUS = 'anonymous';

/** 128 bits of the value's sha256, hex: short, and far from any chance collision between two tokens. */
export function credentialFingerprint(authorization: string | undefined): string {
  if (authorization === undefined) return ANONYMOUS;
  return createHash('sha256').update(authorization).digest('hex').slice(0, 32);
}
