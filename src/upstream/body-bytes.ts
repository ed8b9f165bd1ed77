/**
 * A response body as the HTTP layer reads it. A body announced at most SPLIT_THRESHOLD bytes long
 * is read as text: undici's `text()` collects chunks without the stream's flowing-mode machinery,
 * the cheapest read of the one-call path. A larger body, or one of unknown length, is read as bytes,
 * for json-bytes.ts to parse without one large string.
 */
import { SPLIT_THRESHOLD } from './json-bytes';

/** What the HTTP layer needs of undici's response body. */
export interface BodyReader {
  text(): Promise<string>;
  bytes(): Promise<Uint8Array>;
}

/** The body: its text when small, else its bytes. */
export async function readBody(body: BodyReader, contentLength: string | undefined): Promise<string | Buffer> {
  const length = contentLength === undefined ? Number.NaN : Number(contentLength);
  if (length <= SPLIT_THRESHOLD) return body.text();
  const bytes = await body.bytes();
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
