/**
 * An answer in parts (`@defer`/`@stream`) over HTTP: `multipart/mixed` in the 2022 format
 * (`deferSpec=20220824`), as Apollo Router and GraphQL Yoga write it, for a client whose `Accept`
 * takes it. Each part is a JSON payload (`{data, hasNext}` first, then `{incremental, hasNext}`)
 * with its own `Content-Type`, written as soon as it is made; the boundary is `-` (delimiter
 * `---`, closing `-----`). The client leaving (its socket closed) ends the stream, which cancels
 * what is still pending.
 */
import type { ServerResponse } from 'node:http';
import type { AnswerStream } from '../pipeline';

/** The content type of an answer in parts. */
export const MULTIPART_TYPE = 'multipart/mixed; boundary="-"; deferSpec=20220824';

/**
 * Each part is followed by its delimiter at once, so a reader knows it whole without waiting for
 * the next: `\r\n---` first, then `\r\ncontent-type…\r\n\r\n{json}\r\n---` per part, `--\r\n` to close.
 */
const OPENING = '\r\n---';
const PART_HEAD = '\r\ncontent-type: application/json; charset=utf-8\r\n\r\n';
const PART_END = '\r\n---';
const CLOSING = '--\r\n';

/**
 * Whether `Accept` takes `multipart/mixed` in the 2022 format: the media type with a quality above
 * 0, and no `deferSpec` or `deferSpec=20220824`. (A newer `incrementalSpec` is answered in the
 * 2022 format all the same: its parts say which they are.)
 */
export function acceptsParts(accept: string | undefined): boolean {
  if (accept === undefined || !/multipart\/mixed/i.test(accept)) return false;
  return accept.split(',').some((range) => {
    const [type = '', ...params] = range.split(';').map((piece) => piece.trim().toLowerCase());
    if (type !== 'multipart/mixed') return false;
    for (const param of params) {
      const [name, value = ''] = param.split('=').map((piece) => piece.trim().replace(/^"|"$/g, ''));
      if (name === 'q' && Number(value) === 0) return false;
      if (name === 'deferspec' && value !== '20220824') return false;
    }
    return true;
  });
}

/**
 * Writes `stream`'s parts to `res` as they come; stops the stream when the client leaves. A write
 * never waits for a slow reader, exactly as a whole answer is handed to the socket at once: what
 * the socket holds is bounded by the operation's response bytes (OPERATION_MAX_RESPONSE_BYTES), and
 * the operation ends at its own pace, giving back its slot and context, whoever reads how slowly.
 */
export async function writeParts(res: ServerResponse, stream: AnswerStream, headers: Readonly<Record<string, string>> = {}): Promise<void> {
  // The client gone while a part is pending: end the stream now (its upstream calls are cancelled).
  const leave = (): void => void stream.return(undefined);
  res.once('close', leave);
  try {
    res.writeHead(200, { ...headers, 'content-type': MULTIPART_TYPE });
    res.write(OPENING);
    for await (const part of stream) {
      if (res.destroyed) break;
      res.write(PART_HEAD + JSON.stringify(part) + PART_END);
    }
    if (!res.destroyed) res.end(CLOSING);
  } finally {
    res.off('close', leave);
  }
}
