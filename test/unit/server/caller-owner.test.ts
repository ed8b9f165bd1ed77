/** The caller as owner of background work (src/server/caller-owner.ts): the token stays inside; its key is the verified identity's. */
import { createHmac } from 'node:crypto';
import { ANONYMOUS_KEY, backgroundCaller, type Caller, type Identity } from '../../../src/core/caller';
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

/** A keyed hash of the token, as the verifier makes it. */
const credentialOf = (authorization: string): string => createHmac('sha256', 'test key').update(authorization).digest('hex').slice(0, 40);

const IDENTITY: Identity = { key: 'id:owner', organizationId: 'org', subject: 'owner' };

/** A caller whose token the platform accepts once asked. */
function unverified(authorization: string | undefined): Caller {
  const caller = backgroundCaller(authorization, null);
  return Object.assign(caller, {
    verify() {
      Object.assign(caller, { identity: authorization === undefined ? null : IDENTITY });
      return Promise.resolve(caller.identity);
    },
  });
}

describe('CallerOwner', () => {
  it("shows the verified identity's key, never the token, and refuses to show one before verification", async () => {
    const owner = new CallerOwner(unverified(TOKEN), fakeLayer().layer, { batching: true }, credentialOf);
    expect(() => owner.fingerprint).toThrow(/not verified/);
    await owner.verify();
    expect(owner.fingerprint).toBe('id:owner');
    expect(JSON.stringify(owner)).not.toContain('eyJ');
    expect(owner.credential).toBe(`cred:${credentialOf(TOKEN)}`);
    expect(Object.values(owner)).toEqual([]);
    expect(JSON.stringify({ ...owner })).toBe('{}');
  });

  it("makes each session's loaders over the caller's token and the work's own signal", () => {
    const { layer, callers } = fakeLayer();
    const owner = new CallerOwner(unverified(TOKEN), layer, { batching: true }, credentialOf);
    const signal = new AbortController().signal;
    const session = owner.session(signal);
    expect(session.loaders.network).toBeDefined();
    expect(callers).toHaveLength(1);
    expect(callers[0]?.authorization).toBe(TOKEN);
    expect(callers[0]?.signal).toBe(signal);
    // The poll's calls are counted where the session shows them (a networkChanges poll reports them).
    expect(callers[0]?.calls).toBe(session.calls);
  });

  it('has the anonymous key without a token, and a resumed run keeps the key its record was started under', () => {
    expect(new CallerOwner(unverified(undefined), fakeLayer().layer, { batching: true }, credentialOf).fingerprint).toBe(ANONYMOUS_KEY);
    expect(CallerOwner.resumed(TOKEN, 'id:started', fakeLayer().layer, { batching: true }, credentialOf).fingerprint).toBe('id:started');
  });
});
