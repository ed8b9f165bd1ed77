/**
 * A running provisioning's token, kept in Redis only while the run lasts so that another replica
 * can resume it: encrypted with AES-256-GCM under `FLEET_TOKEN_KEY` (seal.ts), bound to the run
 * (its id, and the digest of its owner and plan, as associated data: a sealed token moved to
 * another run, or kept under a changed plan, does not open). Redis never holds a token in clear;
 * without the key, none is kept at all.
 */
import { open, seal } from './seal';

export function sealToken(key: Buffer, token: string, bound: string): string {
  return seal(key, token, bound);
}

/** The token, or null when it does not open (another key, another run or plan, altered). */
export function openToken(key: Buffer, sealed: string, bound: string): string | null {
  return open(key, sealed, bound);
}
