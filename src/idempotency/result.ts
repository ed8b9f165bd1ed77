/**
 * The result a key keeps: the mutation's formatted GraphQL result as JSON, with the credential that
 * produced it (a keyed hash of the token, never the token), read back with its shape checked (a
 * stored value is data from outside this process), and marked as a replay when served again.
 */
import type { FormattedExecutionResult } from 'graphql';
import { isObject, parseJsonObject } from '../core/parse';

/** A kept result and whose it is: only that credential is given it again. */
export interface KeptResult {
  readonly credential: string;
  readonly result: FormattedExecutionResult;
}

export function resultText(kept: KeptResult): string {
  return JSON.stringify({ credential: kept.credential, result: kept.result });
}

/** The stored result and its credential, or null when the text is not one. */
export function readKept(text: string): KeptResult | null {
  const value = parseJsonObject(text);
  if (value === null || typeof value['credential'] !== 'string') return null;
  const result = formattedResultOf(value['result']);
  return result === null ? null : { credential: value['credential'], result };
}

/** `value` as a formatted GraphQL result, or null when it does not have that shape. */
function formattedResultOf(value: unknown): FormattedExecutionResult | null {
  if (!isObject(value)) return null;
  const { data, errors, extensions } = value;
  if (data !== undefined && data !== null && !isObject(data)) return null;
  if (extensions !== undefined && !isObject(extensions)) return null;
  if (errors !== undefined && !(Array.isArray(errors) && errors.every((e) => isObject(e) && typeof e['message'] === 'string'))) return null;
  // Shape checked above: an object whose data, errors and extensions have the formatted result's forms.
  return value as FormattedExecutionResult;
}

/** The first result, served again: `extensions.idempotentReplayed: true` (HTTP adds `Idempotent-Replayed: true`). */
export function markReplayed(result: FormattedExecutionResult): FormattedExecutionResult {
  return { ...result, extensions: { ...result.extensions, idempotentReplayed: true } };
}
