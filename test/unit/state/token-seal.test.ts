/** A running provisioning's token in Redis: encrypted, bound to its run, unreadable without the key. */
import { randomBytes } from 'node:crypto';
import { openToken, sealToken } from '../../../src/state/redis/token-seal';

const key = randomBytes(32);
const TOKEN = 'Bearer eyJhbGciOiJIUzI1NiJ9.secret.sig';

it('opens with the same key and run, and holds no clear text', () => {
  const sealed = sealToken(key, TOKEN, 'run-1');
  expect(sealed).not.toContain('secret');
  expect(Buffer.from(sealed.split('.')[3] ?? '', 'base64').toString('utf8')).not.toContain('secret');
  expect(openToken(key, sealed, 'run-1')).toBe(TOKEN);
});

it('does not open with another key, for another run, or altered', () => {
  const sealed = sealToken(key, TOKEN, 'run-1');
  expect(openToken(randomBytes(32), sealed, 'run-1')).toBeNull();
  expect(openToken(key, sealed, 'run-2')).toBeNull();
  const parts = sealed.split('.');
  const data = Buffer.from(parts[3] ?? '', 'base64');
  data[0] = (data[0] ?? 0) ^ 1;
  expect(openToken(key, [parts[0], parts[1], parts[2], data.toString('base64')].join('.'), 'run-1')).toBeNull();
  expect(openToken(key, 'garbage', 'run-1')).toBeNull();
});

it('seals the same token differently each time', () => {
  expect(sealToken(key, TOKEN, 'run-1')).not.toBe(sealToken(key, TOKEN, 'run-1'));
});
