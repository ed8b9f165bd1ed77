/**
 * One-time registration tokens for endpoints: JWT-shaped (header.payload.signature, base64url),
 * built from the seeded generator so seed data is stable. Nothing verifies them in the sandbox.
 */
import type { AreaContext } from '../core/types';

const HEADER = Buffer.from(JSON.stringify({ alg: 'RS256', typ: 'JWT' })).toString('base64url');

export function registrationKey(ctx: AreaContext): string {
  const payload = Buffer.from(JSON.stringify({ iss: 'sandbox-enrollment', jti: ctx.uuid(), em: 'ott' })).toString('base64url');
  const signature = Buffer.from(ctx.uuid().replace(/-/g, '') + ctx.uuid().replace(/-/g, ''), 'hex').toString('base64url');
  return `${HEADER}.${payload}.${signature}`;
}
