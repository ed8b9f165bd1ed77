/** Owner keys of shared pollers: a short hash of the Authorization value, never the value. */
import { ANONYMOUS, credentialFingerprint } from '../../../src/pollers';

it('is a 32-hex-digit sha256 prefix, the same for the same value and different for another', () => {
  const token = 'Bearer eyJhbGciOiJIUzI1NiJ9.secret-part.signature';
  const fingerprint = credentialFingerprint(token);
  expect(fingerprint).toMatch(/^[0-9a-f]{32}$/);
  expect(credentialFingerprint(token)).toBe(fingerprint);
  expect(credentialFingerprint(`${token}x`)).not.toBe(fingerprint);
  expect(fingerprint).not.toContain('secret');
});

it('names callers without a token apart from every token', () => {
  expect(credentialFingerprint(undefined)).toBe(ANONYMOUS);
  expect(credentialFingerprint('')).not.toBe(ANONYMOUS);
});
