/** The caller as owner of background work (src/server/caller-owner.ts): the token stays inside. */
import { credentialFingerprint } from '../../../src/pollers';
import { CallerOwner } from '../../../src/server/caller-owner';
import type { CallerOptions, HttpLayer } from '../../../src/upstream/http';

const TOKEN = 'Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJvd25lciJ9.c2lnbmF0dXJl';

function fakeLayer(): { layer: HttpLayer; callers: CallerOptions[] } {
  const callers: CallerOptions[] = [];
  const layer: HttpLayer = {
    forCaller: (caller) => {
      callers.push(caller);
      return { send: () => Promise.reject(new Error('not sent in this test')) };
    },
    serviceUrls: () => [],
    close: () => Promise.resolve(),
  };
  return { layer, callers };
}

describe('CallerOwner', () => {
  it('shows the credential fingerprint, never the token', () => {
    const owner = new CallerOwner(TOKEN, fakeLayer().layer, { batching: true });
    expect(owner.fingerprint).toBe(credentialFingerprint(TOKEN));
    expect(JSON.stringify(owner)).not.toContain('eyJ');
    expect(Object.values(owner)).toEqual([]);
    expect(JSON.stringify({ ...owner })).toBe('{}');
  });

  it("makes each session's loaders over the caller's token and the work's own signal", () => {
    const { layer, callers } = fakeLayer();
    const owner = new CallerOwner(TOKEN, layer, { batching: true });
    const signal = new AbortController().signal;
    const session = owner.session(signal);
    expect(session.loaders.network).toBeDefined();
    expect(callers).toHaveLength(1);
    expect(callers[0]?.authorization).toBe(TOKEN);
    expect(callers[0]?.signal).toBe(signal);
    // The poll's calls are counted where the session shows them (a networkChanges poll reports them).
    expect(callers[0]?.calls).toBe(session.calls);
  });

  it('has the anonymous fingerprint without a token', () => {
    expect(new CallerOwner(undefined, fakeLayer().layer, { batching: true }).fingerprint).toBe(credentialFingerprint(undefined));
  });
});
