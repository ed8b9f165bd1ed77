/** The map legend's line about the platform's APIs, from a /readyz body (web/map/upstream-status.ts). */
import { upstreamStatusLine } from '../../../web/map/upstream-status';

describe('upstream status in the map legend', () => {
  it('names each API that is not answering, and says nothing when all are', () => {
    expect(upstreamStatusLine({ status: 'ready', upstreamApis: { 'auth/v1': { state: 'closed' }, 'rest/v1': { state: 'closed' } } })).toBeNull();
    expect(
      upstreamStatusLine({
        status: 'degraded',
        upstreamApis: { 'auth/v1': { state: 'closed' }, 'rest/v1': { state: 'open', reason: 'failures', retryAfter: 3 }, 'core/v2': { state: 'half-open', reason: 'rate-limited', retryAfter: 0 } },
      }),
    ).toBe('platform: rest/v1 unavailable (retry in 3 s) · core/v2 rate limited by the platform (probing)');
  });

  it('ignores bodies it cannot read', () => {
    for (const body of [null, 'x', {}, { upstreamApis: 3 }, { upstreamApis: { 'rest/v1': 'open' } }]) expect(upstreamStatusLine(body)).toBeNull();
  });
});
