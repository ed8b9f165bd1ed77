/**
 * parseJsonBytes (src/upstream/json-bytes.ts) gives exactly JSON.parse's value for any body, and
 * parses a large HAL list in pieces (no string over the large-object limit) rather than whole.
 */
import { hasJsonText, parseInPieces, parseJsonBytes, SPLIT_THRESHOLD } from '../../../src/upstream/json-bytes';

/** An endpoint-like record of about 900 bytes, with nested objects, arrays and awkward strings. */
function record(i: number, name = `endpoint-${i}`): Record<string, unknown> {
  return {
    id: `0b0c1d2e-${String(i).padStart(4, '0')}-4f5a-9b8c-7d6e5f4a3b2c`,
    name,
    endpointType: i % 3 === 0 ? 'GW' : 'CL',
    tags: [{ k: 'a', v: i }, { k: 'b', v: null }],
    nested: { deep: [[1, 2], { x: '},{"y":1}' }], empty: {} },
    note: 'quotes " and backslashes \\ and },{ and ]} inside a string',
    _links: { self: { href: `http://upstream/rest/v1/endpoints/${i}` }, network: { href: 'http://upstream/rest/v1/networks/n1' } },
    pad: 'x'.repeat(600),
  };
}

function halList(count: number, extra: (i: number) => Record<string, unknown> = record): Record<string, unknown> {
  return {
    _links: { self: { href: 'http://upstream/rest/v1/endpoints?page=0' }, items: [{ href: 'a' }, { href: 'b' }] },
    _embedded: { endpoints: Array.from({ length: count }, (_, i) => extra(i)) },
    page: { size: count, totalElements: count, totalPages: 1, number: 0 },
  };
}

function same(text: string): void {
  const bytes = Buffer.from(text, 'utf8');
  expect(parseJsonBytes(bytes)).toStrictEqual(JSON.parse(text));
}

describe('parseJsonBytes', () => {
  it('parses small bodies as JSON.parse does', () => {
    for (const text of ['{}', '[]', '{"a":[{"b":1},{"c":2}]}', '"x"', '3', 'null', ' [ { } ] ']) same(text);
  });

  it('parses a large HAL list in pieces, to the same value', () => {
    const text = JSON.stringify(halList(400));
    expect(text.length).toBeGreaterThan(SPLIT_THRESHOLD * 3);
    const cut = parseInPieces(Buffer.from(text));
    expect(cut).toBeDefined();
    expect(cut?.value).toStrictEqual(JSON.parse(text));
    same(text);
  });

  it('keeps the order and the records not cut at the end, whatever the count', () => {
    for (const count of [120, 121, 157, 333, 1000]) {
      const text = JSON.stringify(halList(count));
      const value = parseJsonBytes(Buffer.from(text)) as { _embedded: { endpoints: Array<{ id: string }> } };
      expect(value._embedded.endpoints.map((e) => e.id)).toEqual(Array.from({ length: count }, (_, i) => record(i)['id']));
      expect(value).toEqual(JSON.parse(text));
    }
  });

  it('parses pretty-printed, spaced and unicode bodies the same', () => {
    const unicode = halList(200, (i) => record(i, `名前-${i}-ü-🙂`));
    same(JSON.stringify(unicode, null, 2));
    same(JSON.stringify(unicode, null, '\t').replace(/\n/g, '\r\n').replace(/},/g, '} ,'));
    // A byte order mark is skipped, as undici's text() skipped it.
    const text = JSON.stringify(halList(200));
    expect(parseJsonBytes(Buffer.from(`\ufeff${text}`))).toStrictEqual(JSON.parse(text));
  });

  it('gives the same value when the array of records is not first, or is the body itself', () => {
    same(JSON.stringify({ page: { number: 0 }, list: [1, 2, 3], _embedded: { endpoints: halList(300)['_embedded'] } }));
    same(JSON.stringify(Array.from({ length: 300 }, (_, i) => record(i))));
    // A small array of objects first, the large one later: pieces would cross it, so it is parsed whole.
    same(JSON.stringify({ first: [{ a: 1 }], second: Array.from({ length: 300 }, (_, i) => record(i)) }));
  });

  it('gives the same value for large bodies it cannot cut (no array of objects, one huge string, records inside strings)', () => {
    same(JSON.stringify({ big: 'y'.repeat(300_000) }));
    same(JSON.stringify(Array.from({ length: 30_000 }, (_, i) => i)));
    same(JSON.stringify({ text: JSON.stringify(halList(300)) }));
    same(JSON.stringify({ list: Array.from({ length: 300 }, (_, i) => ({ s: `},{"x":${i}}` + 'z'.repeat(900) })) }));
  });

  it('never mistakes a body that holds the placeholder for its own', () => {
    same(JSON.stringify({ _embedded: { endpoints: Array.from({ length: 300 }, (_, i) => (i === 5 ? { mark: '\u0000netgraph:pieces' } : record(i))) } }));
    same(JSON.stringify({ a: '\u0000netgraph:pieces', _embedded: { endpoints: Array.from({ length: 300 }, (_, i) => record(i)) } }));
    // As the first item of an array after the records, where the records would otherwise go back
    // (the rest is searched last key first), spelled plainly and with its letters escaped.
    const tail = { ...halList(300), page: { odd: ['\u0000netgraph:pieces', 1] } };
    same(JSON.stringify(tail));
    const escaped = JSON.stringify(tail).replace('\\u0000netgraph', '\\u0000\\u006eetgraph');
    expect(escaped).toContain('\\u006eetgraph');
    same(escaped);
  });

  it('throws a SyntaxError for a large body that is not JSON, as JSON.parse does', () => {
    const text = JSON.stringify(halList(300));
    for (const broken of [text.slice(0, -1), text.slice(0, text.length / 2), `${text}x`, text.replace('"page"', 'page')]) {
      expect(() => parseJsonBytes(Buffer.from(broken))).toThrow(SyntaxError);
    }
  });

  it('tells a body with JSON text from one of whitespace only, as trim() does', () => {
    for (const blank of ['', ' ', '\r\n\t ', '\u00a0', '\ufeff ']) expect(hasJsonText(Buffer.from(blank))).toBe(false);
    for (const text of ['{}', '  []', '\u00a0null', 'x']) expect(hasJsonText(Buffer.from(text))).toBe(true);
    // A body read as text (a small one) is judged the same.
    for (const blank of ['', ' \r\n', '\u00a0']) expect(hasJsonText(blank)).toBe(false);
    expect(hasJsonText(' {} ')).toBe(true);
  });
});
