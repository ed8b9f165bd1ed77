/**
 * A response body's bytes, as undici received them. Not undici's `body.bytes()`: that copies even a
 * body of one chunk into a new ArrayBuffer, and each such buffer is external memory V8 must track and
 * sweep, a cost on every call of the one-call path. A body of one chunk is that chunk; a longer one
 * is concatenated once.
 */
import type { Readable } from 'node:stream';

export function readBytes(body: Readable): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let length = 0;
    body.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      length += chunk.length;
    });
    body.once('error', reject);
    body.once('end', () => resolve(chunks.length === 1 && chunks[0] !== undefined ? chunks[0] : Buffer.concat(chunks, length)));
  });
}
