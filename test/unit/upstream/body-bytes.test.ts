/**
 * readBody (src/upstream/body-bytes.ts): a body announced small is read as text (undici's cheapest
 * read); a large one, or one of unknown length, as bytes for json-bytes.ts.
 */
import { readBody, type BodyReader } from '../../../src/upstream/body-bytes';
import { parseJsonBytes, SPLIT_THRESHOLD } from '../../../src/upstream/json-bytes';

function reader(text: string): BodyReader & { reads: string[] } {
  const reads: string[] = [];
  return {
    reads,
    text: () => (reads.push('text'), Promise.resolve(text)),
    bytes: () => (reads.push('bytes'), Promise.resolve(new Uint8Array(Buffer.from(text)))),
  };
}

describe('readBody', () => {
  it('reads a body announced at most SPLIT_THRESHOLD bytes as text', async () => {
    const body = reader('{"id":"n1"}');
    expect(await readBody(body, '11')).toBe('{"id":"n1"}');
    expect(await readBody(body, String(SPLIT_THRESHOLD))).toBe('{"id":"n1"}');
    expect(body.reads).toEqual(['text', 'text']);
  });

  it('reads a larger body, or one of unknown or unreadable length, as bytes that parse to the same value', async () => {
    for (const length of [String(SPLIT_THRESHOLD + 1), undefined, 'many']) {
      const body = reader('{"id":"n1"}');
      const read = await readBody(body, length);
      expect(Buffer.isBuffer(read)).toBe(true);
      expect(parseJsonBytes(read)).toEqual({ id: 'n1' });
      expect(body.reads).toEqual(['bytes']);
    }
  });
});
