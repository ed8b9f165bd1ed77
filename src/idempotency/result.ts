/**
 * The result a key keeps: the mutation's formatted GraphQL result as JSON, read back with its shape
 * checked (a stored value is data from outside this process), and marked as a replay when served
 * again.
 */
import type { FormattedExecutionResult } from 'graphql';
import { isObject, parseJsonObject } from '../core/parse';

export function resultText(result: FormattedExecutionResult): string {
  return JSON.stringify(result);
}

/** The stored result, or null when the text is not a formatted GraphQL result. */
export function readResult(text: string): FormattedExecutionResult | null {
  const value = parseJsonObject(text);
  if (value === null) return null;
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
