/** The key as a door reads it, the request's fingerprint, and each refusal's answer. */
import { ErrorCode } from '../../../src/errors/codes';
import { canonicalJson, documentHashOf, fingerprintOf } from '../../../src/idempotency/fingerprint';
import { parseIdempotencyKey } from '../../../src/idempotency/key';
import { refusalError, refusalHttpStatus } from '../../../src/idempotency/refusal';
import { markReplayed, readKept, resultText } from '../../../src/idempotency/result';

describe('parseIdempotencyKey', () => {
  it('takes 1 to 255 printable characters, and no key at all', () => {
    expect(parseIdempotencyKey('9b2f6c1e-1d7a-4c55-9d0e-2f1c3a4b5c6d', 'Idempotency-Key')).toBe('9b2f6c1e-1d7a-4c55-9d0e-2f1c3a4b5c6d');
    expect(parseIdempotencyKey('x'.repeat(255), 'Idempotency-Key')).toHaveLength(255);
    expect(parseIdempotencyKey(undefined, 'Idempotency-Key')).toBeNull();
    expect(parseIdempotencyKey(null, 'extensions.idempotencyKey')).toBeNull();
  });

  it.each([
    ['too long', 'x'.repeat(256)],
    ['empty', ''],
    ['blank', '   '],
    ['a control character', 'key\n1'],
    ['non-ASCII', 'clé'],
    ['not a string', 42],
  ])('refuses %s with BAD_USER_INPUT naming where it came from', (_what, value) => {
    expect(() => parseIdempotencyKey(value, 'extensions.idempotencyKey')).toThrow(expect.objectContaining({ code: ErrorCode.BAD_USER_INPUT, field: 'extensions.idempotencyKey' }));
  });
});

describe('fingerprintOf', () => {
  const base = { documentHash: documentHashOf('mutation M($i: In!) { createEndpoint(input: $i) { id } }'), operationName: 'M' };

  it('is the same for the same variables in another key order', () => {
    expect(fingerprintOf({ ...base, variables: { i: { name: 'a', networkId: 'n', tags: [1, { b: 2, a: 1 }] } } })).toBe(
      fingerprintOf({ ...base, variables: { i: { tags: [1, { a: 1, b: 2 }], networkId: 'n', name: 'a' } } }),
    );
    expect(fingerprintOf({ ...base, variables: {} })).toBe(fingerprintOf({ ...base, variables: null }));
  });

  it('differs with another document, operation name or variable', () => {
    const one = fingerprintOf({ ...base, variables: { i: { name: 'a' } } });
    expect(fingerprintOf({ ...base, variables: { i: { name: 'b' } } })).not.toBe(one);
    expect(fingerprintOf({ ...base, operationName: 'N', variables: { i: { name: 'a' } } })).not.toBe(one);
    expect(fingerprintOf({ ...base, documentHash: documentHashOf('mutation M { x }'), variables: { i: { name: 'a' } } })).not.toBe(one);
    expect(fingerprintOf({ ...base, variables: { i: { name: 'a', extra: null } } })).not.toBe(one);
  });

  it('writes canonical JSON', () => {
    expect(canonicalJson({ b: [3, { d: 1, c: undefined }], a: 'x' })).toBe('{"a":"x","b":[3,{"d":1}]}');
  });
});

describe('the kept result', () => {
  it('reads back what it wrote, and marks a replay', () => {
    const result = { data: { createNetwork: { id: 'n1' } }, errors: [{ message: 'partial', path: ['x'] }] };
    expect(readKept(resultText({ credential: 'c1', result }))).toEqual({ credential: 'c1', result });
    expect(markReplayed(result).extensions).toEqual({ idempotentReplayed: true });
  });

  it.each(['[]', '{"data":[1]}', '{"errors":[{"nomessage":1}]}', '{"extensions":3}', '3'])('refuses a result of %s', (text) => {
    expect(readKept(`{"credential":"c1","result":${text}}`)).toBeNull();
  });

  it.each(['not json', '{"result":{"data":{}}}', '{"credential":1,"result":{"data":{}}}'])('refuses %s', (text) => {
    expect(readKept(text)).toBeNull();
  });
});

describe('refusals', () => {
  it('answers each with its code, hint and HTTP status', () => {
    expect(refusalError({ kind: 'reused' }).extensions).toEqual({ code: 'IDEMPOTENCY_KEY_REUSED' });
    expect(refusalHttpStatus({ kind: 'reused' })).toBe(422);
    expect(refusalError({ kind: 'in-progress', retryAfterSeconds: 3 }).extensions).toEqual({ code: 'IDEMPOTENCY_KEY_IN_PROGRESS', retryAfter: 3 });
    expect(refusalHttpStatus({ kind: 'in-progress', retryAfterSeconds: 3 })).toBe(409);
    const unknown = refusalError({ kind: 'outcome-unknown', reason: 'lease-lapsed' });
    expect(unknown.extensions).toEqual({ code: 'IDEMPOTENCY_OUTCOME_UNKNOWN', outcomeUnknown: true, reason: 'leaseLapsed' });
    expect(unknown.message).toMatch(/list by name/);
    expect(refusalError({ kind: 'full', bound: 'keysPerIdentity', max: 5, retryAfterSeconds: 9 }).extensions).toEqual({
      code: 'RATE_LIMITED',
      limit: 'idempotencyKeys',
      max: 5,
      scope: 'caller',
      retryAfter: 9,
    });
    expect(refusalHttpStatus({ kind: 'full', bound: 'keys', max: 5, retryAfterSeconds: 9 })).toBe(429);
  });
});
