/**
 * The authorization API's field rules, checked before any upstream call. The API does not document
 * the pattern a `code` must match, so
 * only what any pattern must imply is checked here (not empty, no whitespace); the upstream's own
 * 400 comes back as BAD_USER_INPUT.
 */
import { BadInputError } from '../../errors/codes';
import { isObject } from '../../core/parse';

export function checkCode(value: string, field: string): void {
  if (value === '') throw new BadInputError(field, `${field} must not be empty`);
  if (/\s/.test(value)) throw new BadInputError(field, `${field} must not contain whitespace`);
}

export function checkNotEmpty(value: string, field: string): void {
  if (value === '') throw new BadInputError(field, `${field} must not be empty`);
}

export function checkNonEmptyList(value: readonly unknown[], field: string): void {
  if (value.length === 0) throw new BadInputError(field, `${field} must not be empty`);
}

export function checkJsonObject(value: unknown, field: string): Record<string, unknown> {
  if (!isObject(value)) throw new BadInputError(field, `${field} must be a JSON object`);
  return value;
}
