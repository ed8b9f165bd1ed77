/**
 * Verifying bearers with the platform (src/core/verify.ts): once per token while the verdict
 * lasts, refusals remembered briefly, concurrent verifications of one token sharing one call, an
 * outage never cached, one identity for every token of one person, and the fleet's store keyed by
 * a keyed hash of the token (never the token), a verdict read from it expiring at the time it was
 * given, and one token spelt several ways being one caller.
 */
import { createCallerVerifier, identityOf, jwtSubject, type Identification, type StoredVerdict, type VerdictStore } from '../../../src/core/verify';

const jwt = (claims: Record<string, unknown>): string => `Bearer e30.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.c2ln`;

function setup(answer: (authorization: string) => Identification | Error, store: VerdictStore | null = null, clock: { now: number } = { now: 0 }) {
  const asked: string[] = [];
  let release: () => void = () => undefined;
  let gate: Promise<void> = Promise.resolve();
  const verifier = createCallerVerifier({
    hashKey: Buffer.alloc(32, 7),
    ttlMs: 1000,
    refusedTtlMs: 100,
    store,
    now: () => clock.now,
    identify: async (authorization) => {
      asked.push(authorization);
      await gate;
      const a = answer(authorization);
      if (a instanceof Error) throw a;
      return a;
    },
  });
  return {
    verifier,
    asked,
    advance: (ms: number) => (clock.now += ms),
    hold: () => {
      gate = new Promise((resolve) => (release = resolve));
    },
    release: () => release(),
  };
}

const ORG = { organizationId: 'org-1' };

describe('createCallerVerifier', () => {
  it('asks the platform once per token while the verdict lasts, then again', async () => {
    const t = setup(() => ORG);
    const token = jwt({ sub: 'alice' });
    for (let i = 0; i < 5; i++) await t.verifier.verify(token);
    expect(t.asked).toHaveLength(1);
    t.advance(1001);
    await t.verifier.verify(token);
    expect(t.asked).toHaveLength(2);
  });

  it('shares one call among concurrent verifications of one token', async () => {
    const t = setup(() => ORG);
    t.hold();
    const all = Promise.all(Array.from({ length: 50 }, () => t.verifier.verify(jwt({ sub: 'bob' }))));
    t.release();
    const identities = await all;
    expect(t.asked).toHaveLength(1);
    expect(new Set(identities.map((i) => i.key)).size).toBe(1);
  });

  it('refuses a token the platform refuses (401 → UNAUTHENTICATED, 403/404 → FORBIDDEN), and remembers it briefly', async () => {
    const t = setup((a) => ({ refused: a.includes('nobody') ? 404 : 401 }));
    await expect(t.verifier.verify('Bearer junk')).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    await expect(t.verifier.verify('Bearer junk')).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    expect(t.asked).toHaveLength(1);
    t.advance(101);
    await expect(t.verifier.verify('Bearer junk')).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    expect(t.asked).toHaveLength(2);
    await expect(t.verifier.verify('Bearer nobody')).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });

  it('answers an outage UPSTREAM_UNAVAILABLE and caches nothing', async () => {
    let down = true;
    const t = setup(() => (down ? new Error('connect ECONNREFUSED') : ORG));
    await expect(t.verifier.verify('Bearer x')).rejects.toMatchObject({ code: 'UPSTREAM_UNAVAILABLE' });
    down = false;
    await expect(t.verifier.verify('Bearer x')).resolves.toMatchObject({ organizationId: 'org-1' });
    expect(t.asked).toHaveLength(2);
  });

  it('gives every token of one person one identity, and tokens that are not JWTs one each', async () => {
    const t = setup(() => ORG);
    const keys = await Promise.all([jwt({ sub: 'carol', n: 1 }), jwt({ sub: 'carol', n: 2 }), jwt({ sub: 'carol', n: 3 })].map((token) => t.verifier.verify(token).then((i) => i.key)));
    expect(new Set(keys).size).toBe(1);
    const dave = await t.verifier.verify(jwt({ sub: 'dave' }));
    expect(dave.key).not.toBe(keys[0]);
    expect(dave.subject).toBe('dave');
    const opaque = [await t.verifier.verify('Bearer opaque-1'), await t.verifier.verify('Bearer opaque-2')];
    expect(opaque[0]?.subject).toBeNull();
    expect(opaque[0]?.key).not.toBe(opaque[1]?.key);
  });

  it('keeps verdicts in the fleet store under a keyed hash, and reads them back there', async () => {
    const stored = new Map<string, StoredVerdict>();
    const store: VerdictStore = { get: (h) => Promise.resolve(stored.get(h) ?? null), set: (h, verdict, expiresAt) => (stored.set(h, { verdict, expiresAt }), Promise.resolve()) };
    const token = jwt({ sub: 'erin' });
    const first = setup(() => ORG, store);
    await first.verifier.verify(token);
    expect([...stored.keys()]).toEqual([first.verifier.tokenHash(token)]);
    expect(JSON.stringify([...stored])).not.toContain(token.slice(7, 20));
    // Another replica (same key) finds the verdict without asking the platform.
    const second = setup(() => new Error('not asked'), store);
    await expect(second.verifier.verify(token)).resolves.toMatchObject({ subject: 'erin', organizationId: 'org-1' });
    expect(second.asked).toHaveLength(0);
  });

  it('keeps a verdict read from the store until the time the platform gave it, not a fresh period', async () => {
    const stored = new Map<string, StoredVerdict>();
    const store: VerdictStore = { get: (h) => Promise.resolve(stored.get(h) ?? null), set: (h, verdict, expiresAt) => (stored.set(h, { verdict, expiresAt }), Promise.resolve()) };
    const clock = { now: 10_000 };
    const token = jwt({ sub: 'frank' });
    const first = setup(() => ORG, store, clock);
    await first.verifier.verify(token);
    expect(stored.get(first.verifier.tokenHash(token))?.expiresAt).toBe(11_000);
    // 900 ms later a second replica reads it: it holds 100 ms more, not 1000.
    clock.now += 900;
    const second = setup(() => ({ refused: 401 }), store, clock);
    await second.verifier.verify(token);
    expect(second.verifier.isCurrent(token)).toBe(true);
    clock.now += 101;
    expect(second.verifier.isCurrent(token)).toBe(false);
    stored.clear(); // Redis let it expire too.
    await expect(second.verifier.verify(token)).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    expect(second.asked).toHaveLength(1);
  });

  it('dates a verdict from when the platform was asked: a check slower than the period is not kept', async () => {
    const clock = { now: 0 };
    const t = setup(() => ((clock.now += 1500), ORG), null, clock);
    const token = jwt({ sub: 'gina' });
    await t.verifier.verify(token);
    expect(t.verifier.isCurrent(token)).toBe(false);
    await t.verifier.verify(token);
    expect(t.asked).toHaveLength(2);
  });

  it('tells current acceptances only: none before asking, none for a refusal', async () => {
    const t = setup((authorization) => (authorization.includes('bad') ? { refused: 401 } : ORG));
    expect(t.verifier.isCurrent('Bearer good')).toBe(false);
    await t.verifier.verify('Bearer good');
    expect(t.verifier.isCurrent('Bearer good')).toBe(true);
    await expect(t.verifier.verify('Bearer bad')).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    expect(t.verifier.isCurrent('Bearer bad')).toBe(false);
  });

  it('makes one caller of one opaque token however its header is spelt', async () => {
    const t = setup(() => ORG);
    const spellings = ['Bearer opaque-T', 'bearer opaque-T', 'Bearer  opaque-T', ' Bearer opaque-T ', 'BEARER\topaque-T'];
    const keys = new Set<string>();
    for (const spelling of spellings) keys.add((await t.verifier.verify(spelling)).key);
    expect(keys.size).toBe(1);
    expect(new Set(spellings.map((s) => t.verifier.tokenHash(s))).size).toBe(1);
    // The platform was asked once, with the one spelling.
    expect(t.asked).toEqual(['Bearer opaque-T']);
    // The token itself is case-sensitive: another token is another caller.
    expect((await t.verifier.verify('Bearer OPAQUE-T')).key).not.toBe([...keys][0]);
  });
});

describe('jwtSubject and identityOf', () => {
  it.each([
    [jwt({ sub: 'x' }), 'x'],
    [jwt({ sub: '' }), null],
    [jwt({ sub: 3 }), null],
    ['Bearer not-a-jwt', null],
    ['Bearer a.%%%.c', null],
    ['Basic dXNlcjpwYXNz', null],
  ])('%s → %s', (authorization, sub) => {
    expect(jwtSubject(authorization)).toBe(sub);
  });

  it('tells one subject in two organizations apart', () => {
    expect(identityOf('org-1', 'x', 'h').key).not.toBe(identityOf('org-2', 'x', 'h').key);
  });
});
