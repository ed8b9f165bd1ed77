/**
 * The client's idempotency key, as it arrives on a door (`Idempotency-Key` on HTTP,
 * `extensions.idempotencyKey` in a GraphQL request, `idempotencyKey` on an MCP tool): 1 to 255
 * printable ASCII characters. Anything else is refused before any call, so a client never
 * believes a malformed key protected its create.
 */
import { BadInputError } from '../errors/codes';

export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

const PRINTABLE = /^[\x20-\x7e]+$/;

/**
 * The key, or null when none was given (`undefined` or `null`). `where` names it in the refusal
 * (`Idempotency-Key`, `extensions.idempotencyKey`, `idempotencyKey`).
 */
export function parseIdempotencyKey(value: unknown, where: string): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw new BadInputError(where, `${where} must be a string of 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} printable characters`);
  if (value.trim() === '' || value.length > MAX_IDEMPOTENCY_KEY_LENGTH || !PRINTABLE.test(value)) {
    throw new BadInputError(where, `${where} must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} printable ASCII characters, not blank (a UUID is a good key)`);
  }
  return value;
}
