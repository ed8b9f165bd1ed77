/**
 * An id placed into an upstream path as one segment. Every client builds paths from ids through
 * here, so an id that cannot be one segment (empty, `.` or `..`, a slash or backslash, a percent
 * sign — an encoded slash in disguise — or a control character) is the caller's mistake,
 * `BAD_USER_INPUT` before any call, on every API; never a path that goes somewhere else.
 */
import { BadInputError } from '../errors/codes';

const SEPARATORS = /[/\\%]/;

function hasControlCharacter(value: string): boolean {
  for (let i = 0; i < value.length; i += 1) {
    const c = value.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return true;
  }
  return false;
}

/** `value` encoded as one path segment; throws BadInputError (naming `field`) when it cannot be one. */
export function segment(value: string, field = 'id'): string {
  if (value === '' || value === '.' || value === '..' || SEPARATORS.test(value) || hasControlCharacter(value)) {
    throw new BadInputError(field, `${field} ${JSON.stringify(value.slice(0, 80))} cannot be part of a path: an id has no slash, backslash, percent sign, control character, and is not empty, "." or ".."`);
  }
  return encodeURIComponent(value);
}
