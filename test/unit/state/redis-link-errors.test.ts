/**
 * ioredis hears a socket's first error only; a TLS socket can emit a second (a refused
 * certificate, then the server's alert). The link hears the later ones, so none ends the process
 * (a CI run once lost a suite to that second error).
 */
import { RedisLink } from '../../../src/state/redis/link';
import { freePort } from '../../helpers/redis-server';

it('hears a second error on the socket that failed: nothing is thrown', async () => {
  const port = await freePort(); // nothing listens there: the connection is refused
  const link = new RedisLink(`redis://127.0.0.1:${port}`, () => undefined);
  const outcome = new Promise<unknown>((resolve) => {
    // After the link's own listener, on the first error, while ioredis's one-shot listener is spent.
    link.client.once('error', () => {
      try {
        link.client.stream.emit('error', new Error('a second error on the same socket'));
        resolve('heard');
      } catch (error) {
        resolve(error);
      }
    });
  });
  await expect(outcome).resolves.toBe('heard');
  await link.close();
});
