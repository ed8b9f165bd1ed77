/**
 * JSON.parse for upstream bodies, without one large string for a large body.
 *
 * Why: V8 puts every string over ~128 KB in its large-object space, which maps fresh memory for
 * each one and unmaps it after the next collection. Every 4 KB page of it is then a page fault,
 * and on the machines we run on a fault costs ~15-20 µs: decoding a 350 KB list body took 1.5 ms
 * (87 faults) where a 98 KB one takes 13 µs. The whole-network graph reads 8.7 MB of such lists.
 *
 * So a large body is parsed in pieces: its array of records (a HAL list's `_embedded` list) is cut
 * between two records into pieces of about PIECE_BYTES, each decoded and parsed on its own (young,
 * reused memory), and the rest of the body (its head, the last records, the page and links) is
 * parsed with a placeholder where the cut records go back. A cut is only kept when its piece parses
 * as a run of whole values, so a cut that fell inside a string or a nested value is never used, and
 * the rest only parses when the array really is one (not text inside a string). Whatever cannot be
 * cut (no array of objects, one huge string) is parsed whole, exactly as before. Either way the
 * result is the value JSON.parse gives for the whole text (test/unit/upstream/json-bytes.test.ts).
 */

/** Bodies up to this size are parsed whole (their text stays in V8's regular, reused pages). */
export const SPLIT_THRESHOLD = 96 * 1024;
/** Target size of one piece: well under the large-object limit, large enough that pieces are few. */
const PIECE_BYTES = 48 * 1024;
/** Cut no more once this much is left: the rest (with the body's head) is parsed as one string. */
const TAIL_BYTES = 64 * 1024;
/** Candidate cuts tried for one piece before giving up on cutting this body. */
const MAX_TRIES = 8;

const OPEN_BRACKET = 0x5b; // [
const OPEN_BRACE = 0x7b; // {
const CLOSE_BRACE = 0x7d; // }
const COMMA = 0x2c;

/** A string no JSON text holds unescaped (it starts with U+0000): it marks where the pieces go back. */
const PLACEHOLDER = '\u0000netgraph:pieces';
const PLACEHOLDER_JSON = JSON.stringify(PLACEHOLDER);
/** How JSON text writes U+0000 (its only spelling: the hex digits are all 0, which have no case). */
const NUL_ESCAPE = '\\u0000';

function isSpace(byte: number | undefined): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

function skipSpace(bytes: Buffer, at: number): number {
  while (at < bytes.length && isSpace(bytes[at])) at += 1;
  return at;
}

/** The byte order mark's length at the start of `bytes` (undici's `text()` skips it too). */
function bomLength(bytes: Buffer): number {
  return bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
}

/** Decodes bytes as UTF-8, without a byte order mark (a body read as text is that text already). */
export function decodeUtf8(body: string | Buffer): string {
  return typeof body === 'string' ? body : body.toString('utf8', bomLength(body));
}

/**
 * Whether a JSON answer has a body to parse: anything but whitespace (`text.trim() !== ''`). Bytes
 * beyond ASCII before the first other character are decoded to tell, as trim() would.
 */
export function hasJsonText(body: string | Buffer): boolean {
  if (typeof body === 'string') return body.trim() !== '';
  const bytes = body;
  const first = skipSpace(bytes, 0);
  if (first === bytes.length) return false;
  const byte = bytes[first];
  return byte !== undefined && byte < 0x80 ? true : decodeUtf8(bytes).trim() !== '';
}

/** Parses a body as JSON: the value JSON.parse gives for its text (throws its SyntaxError when it is not JSON). */
export function parseJsonBytes(body: string | Buffer): unknown {
  if (typeof body === 'string') return JSON.parse(body);
  const bytes = body;
  if (bytes.length > SPLIT_THRESHOLD) {
    const cut = parseInPieces(bytes);
    if (cut !== undefined) return cut.value;
  }
  return JSON.parse(decodeUtf8(bytes));
}

/**
 * The body parsed with the records of its first array of objects cut into pieces; undefined when
 * it cannot be cut safely (the caller then parses it whole).
 */
export function parseInPieces(bytes: Buffer): { value: unknown } | undefined {
  // The records' array is the first array of objects whose first piece parses (a HAL `_links`
  // may hold a small array of objects before it).
  let open = -1;
  let first: { items: unknown[]; next: number } | undefined;
  for (let tries = 0; first === undefined && tries < MAX_TRIES; tries += 1) {
    open = arrayOfObjects(bytes, open + 1);
    if (open < 0 || bytes.length - open <= TAIL_BYTES) return undefined;
    first = nextPiece(bytes, skipSpace(bytes, open + 1));
  }
  if (first === undefined) return undefined;
  const items = first.items;
  let start = first.next;
  while (bytes.length - start > TAIL_BYTES) {
    const piece = nextPiece(bytes, start);
    if (piece === undefined) return undefined;
    for (const item of piece.items) items.push(item);
    start = piece.next;
  }
  // The head (up to the array's `[`), the placeholder as the array's first item, then the records
  // not cut and the rest of the body: small enough to be one regular string.
  const head = bytes.toString('utf8', bomLength(bytes), open + 1);
  const tail = bytes.toString('utf8', start);
  // The placeholder must be the only string of `rest` that starts with U+0000, or the records could
  // go back in the wrong place. JSON text can only write that character escaped, as \u0000, so a
  // head and tail without that escape hold no such string (however the rest of it is escaped). The
  // pieces need no check: they are parsed apart and never searched.
  if (head.includes(NUL_ESCAPE) || tail.includes(NUL_ESCAPE)) return undefined;
  let rest: unknown;
  try {
    rest = JSON.parse(`${head}${PLACEHOLDER_JSON},${tail}`);
  } catch {
    return undefined;
  }
  return putBack(rest, items);
}

/** Where the first `[` directly followed by `{` from `from` is (spaces between allowed), or -1. */
function arrayOfObjects(bytes: Buffer, from: number): number {
  for (let at = bytes.indexOf(OPEN_BRACKET, from); at >= 0; at = bytes.indexOf(OPEN_BRACKET, at + 1)) {
    if (bytes[skipSpace(bytes, at + 1)] === OPEN_BRACE) return at;
  }
  return -1;
}

/**
 * The records from `start` (a record's `{`) up to a `}` , `{` boundary at least PIECE_BYTES on, and
 * where the next record starts. A boundary may also lie inside a string or a nested value: only one
 * whose piece parses as a run of whole values is kept (a piece cut inside a value does not parse).
 */
function nextPiece(bytes: Buffer, start: number): { items: unknown[]; next: number } | undefined {
  let at = bytes.indexOf(CLOSE_BRACE, start + PIECE_BYTES);
  for (let tries = 0; at >= 0 && tries < MAX_TRIES; at = bytes.indexOf(CLOSE_BRACE, at + 1)) {
    const comma = skipSpace(bytes, at + 1);
    if (bytes[comma] !== COMMA) continue;
    const next = skipSpace(bytes, comma + 1);
    if (bytes[next] !== OPEN_BRACE) continue;
    tries += 1;
    const items = parsePiece(bytes, start, at + 1);
    if (items !== undefined) return { items, next };
  }
  return undefined;
}

/** The values between `start` and `end` when they are a run of whole JSON values; else undefined. */
function parsePiece(bytes: Buffer, start: number, end: number): unknown[] | undefined {
  try {
    const value: unknown = JSON.parse(`[${bytes.toString('utf8', start, end)}]`);
    return Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** `rest`, its array whose first item is PLACEHOLDER given `items` in that item's place (in place). */
function putBack(rest: unknown, items: unknown[]): { value: unknown } | undefined {
  const stack: unknown[] = [rest];
  while (stack.length > 0) {
    const node = stack.pop();
    if (Array.isArray(node)) {
      if (node[0] === PLACEHOLDER) {
        const uncut: unknown[] = node.slice(1);
        node.length = 0;
        for (const item of items) node.push(item);
        for (const item of uncut) node.push(item);
        return { value: rest };
      }
      for (const item of node) stack.push(item);
    } else if (typeof node === 'object' && node !== null) {
      for (const value of Object.values(node)) stack.push(value);
    }
  }
  return undefined;
}
