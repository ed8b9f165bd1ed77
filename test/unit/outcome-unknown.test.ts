/** When a failed change may have been applied anyway (`extensions.outcomeUnknown`). */
import { outcomeUnknown } from '../../src/upstream/http-errors';

it.each([
  ['POST', { transportCode: 'ECONNRESET' }, true],
  ['PUT', { transportCode: 'UND_ERR_HEADERS_TIMEOUT' }, true],
  ['DELETE', { transportCode: 'UND_ERR_SOCKET' }, true],
  ['POST', { transportCode: undefined }, true],
  ['POST', { status: 504 }, true],
  ['POST', { transportCode: 'ECONNREFUSED' }, false],
  ['POST', { transportCode: 'UND_ERR_CONNECT_TIMEOUT' }, false],
  ['POST', { status: 503 }, false],
  ['POST', { status: 400 }, false],
  ['GET', { transportCode: 'ECONNRESET' }, false],
] as const)('%s after %j: unknown = %s', (method, failure, expected) => {
  expect(outcomeUnknown(method, failure)).toBe(expected);
});
