/**
 * An answer handed out again (a cache hit, a shared call): each caller gets its own copy, its JSON
 * parsed from the stored text, so no caller can change what another one reads.
 */
import type { UpstreamResponse } from '../http-types';

export function answerFrom(status: number, headers: Readonly<Record<string, string>>, text: string): UpstreamResponse {
  const copy = { ...headers };
  if (/[/+]json\b/i.test(copy['content-type'] ?? '') && text.trim() !== '') return { status, headers: copy, body: JSON.parse(text) as unknown, text };
  return { status, headers: copy, body: text === '' ? null : text, text };
}

/** A copy of a response another caller also holds. */
export function copyOf(response: UpstreamResponse): UpstreamResponse {
  return answerFrom(response.status, response.headers, response.text);
}
