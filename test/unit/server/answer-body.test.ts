/**
 * endWith (src/doors/answer-body.ts): an answer reaches the client byte for byte with its length,
 * whether written as a string (small) or as bytes (large), multi-byte characters included.
 */
import { createServer, type Server } from 'node:http';
import { request } from 'undici';
import { endWith, LARGE_ANSWER_CHARS } from '../../../src/doors/answer-body';

let server: Server;
let url: string;
let next = '';

beforeAll(async () => {
  server = createServer((_req, res) => {
    res.setHeader('content-type', 'application/json; charset=utf-8');
    endWith(res, next);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  url = `http://127.0.0.1:${address.port}/`;
});

afterAll(() => new Promise<void>((done) => server.close(() => done())));

/** A JSON answer of about `chars` characters, with 2-, 3- and 4-byte UTF-8 characters in it. */
function answer(chars: number): string {
  const names: string[] = [];
  for (let i = 0, length = 0; length < chars; i++) {
    const name = `réseau-${i}-東京-🚀`;
    names.push(name);
    length += name.length + 3;
  }
  return JSON.stringify({ data: { names } });
}

describe('endWith', () => {
  it.each([
    ['a small answer (a string)', 1_000],
    ['one just under the threshold', LARGE_ANSWER_CHARS - 200],
    ['a large answer (bytes)', LARGE_ANSWER_CHARS * 3],
    ['a 1.5 MB answer', 1_500_000],
  ])('sends %s exactly, with its byte length', async (_name, chars) => {
    next = answer(chars);
    const res = await request(url);
    const body = Buffer.from(await res.body.arrayBuffer());
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-length']).toBe(String(Buffer.byteLength(next)));
    expect(body.equals(Buffer.from(next, 'utf8'))).toBe(true);
  });
});
