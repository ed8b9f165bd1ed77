/** The one caller factory every door uses (src/core/caller.ts): what it reads off a request, and the share key it gives. */
import { ANONYMOUS_KEY, createCallerFactory, normalizeAuthorization, shareKeyOf, type Identity, type IdentityVerifier } from '../../../src/core/caller';
import { GatewayError } from '../../../src/errors/codes';

const ALICE: Identity = { key: 'id:alice', organizationId: 'org', subject: 'alice' };

function verifier(): IdentityVerifier & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    verify(authorization) {
      asked.push(authorization);
      return authorization === 'Bearer good' ? Promise.resolve(ALICE) : Promise.reject(new GatewayError('UNAUTHENTICATED', 'refused'));
    },
  };
}

describe('createCallerFactory', () => {
  const settings = { trustProxyHops: 1, header: null };

  it('reads the request id, trace context and client address off the request', () => {
    const callerOf = createCallerFactory(verifier(), settings);
    const caller = callerOf({
      authorization: 'Bearer good',
      socketAddress: '10.0.0.1',
      headers: { 'x-request-id': 'req-1', traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01', 'x-forwarded-for': '2001:db8::7' },
    });
    expect(caller.requestId).toBe('req-1');
    expect(caller.traceHeaders['traceparent']).toMatch(/^00-/);
    expect(caller.clientAddress).toBe('2001:db8::7');
    expect(caller.addressKey).toBe('address:2001:db8:0:0::/64');
    // An id that is not a plain token is replaced.
    expect(callerOf({ authorization: undefined, socketAddress: '10.0.0.1', headers: { 'x-request-id': 'bad id\n' } }).requestId).not.toBe('bad id\n');
  });

  it('keys shares by the verified identity, refuses to key an unverified token, and keys anonymous callers together', async () => {
    const v = verifier();
    const callerOf = createCallerFactory(v, settings);
    const caller = callerOf({ authorization: 'Bearer good', socketAddress: '10.0.0.1', headers: {} });
    expect(() => shareKeyOf(caller)).toThrow(/not verified/);
    await expect(caller.verify()).resolves.toBe(ALICE);
    expect(shareKeyOf(caller)).toBe('id:alice');
    const refused = callerOf({ authorization: 'Bearer junk', socketAddress: '10.0.0.1', headers: {} });
    await expect(refused.verify()).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    expect(refused.identity).toBeNull();
    const anonymous = callerOf({ authorization: undefined, socketAddress: '10.0.0.1', headers: {} });
    await expect(anonymous.verify()).resolves.toBeNull();
    expect(shareKeyOf(anonymous)).toBe(ANONYMOUS_KEY);
    expect(v.asked).toEqual(['Bearer good', 'Bearer junk']);
  });

  it('builds every caller with one spelling of its credential (scheme and whitespace normalized)', async () => {
    const v = verifier();
    const callerOf = createCallerFactory(v, settings);
    for (const spelling of ['Bearer good', 'bearer good', 'Bearer  good', ' Bearer good ', 'BEARER\tgood']) {
      const caller = callerOf({ authorization: spelling, socketAddress: '10.0.0.1', headers: {} });
      expect(caller.authorization).toBe('Bearer good');
      await expect(caller.verify()).resolves.toBe(ALICE);
    }
    expect(new Set(v.asked)).toEqual(new Set(['Bearer good']));
  });
});

describe('normalizeAuthorization', () => {
  it.each([
    ['Bearer T', 'Bearer T'],
    ['bearer T', 'Bearer T'],
    ['Bearer   T', 'Bearer T'],
    ['  Bearer T\t', 'Bearer T'],
    ['Basic  dXNlcjpwYXNz', 'Basic dXNlcjpwYXNz'],
    ['Bearer', 'Bearer'],
    ['', ''],
  ])('%j → %j', (given, expected) => {
    expect(normalizeAuthorization(given)).toBe(expected);
  });

  it('leaves no credential as none', () => {
    expect(normalizeAuthorization(undefined)).toBeUndefined();
  });
});
