/**
 * What the legend says of the platform's APIs: read from `/readyz` (its `upstreamApis`, each API's
 * circuit breaker). An API that is open or half-open is named, so a map that stops changing is
 * explained by the platform, not taken for a quiet network.
 */

/** The legend's line for a `/readyz` body; null when every API answers (or the body says nothing of them). */
export function upstreamStatusLine(body: unknown): string | null {
  if (typeof body !== 'object' || body === null || !('upstreamApis' in body)) return null;
  const apis = body.upstreamApis;
  if (typeof apis !== 'object' || apis === null) return null;
  const parts: string[] = [];
  for (const [api, value] of Object.entries(apis)) {
    if (typeof value !== 'object' || value === null) continue;
    const state = 'state' in value ? value.state : undefined;
    if (state !== 'open' && state !== 'half-open') continue;
    const reason = 'reason' in value ? value.reason : undefined;
    const retryAfter = 'retryAfter' in value && typeof value.retryAfter === 'number' ? value.retryAfter : 0;
    const why = reason === 'rate-limited' ? 'rate limited by the platform' : 'unavailable';
    parts.push(state === 'open' ? `${api} ${why} (retry in ${retryAfter} s)` : `${api} ${why} (probing)`);
  }
  return parts.length === 0 ? null : `platform: ${parts.join(' · ')}`;
}
