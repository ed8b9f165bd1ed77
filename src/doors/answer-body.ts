/**
 * How a GraphQL answer's text goes to the socket. Node's HTTP layer prepends the headers to a
 * string body (one string: header + body), which V8 must then copy whole before the socket
 * encodes it again. For a large answer that copy lands in V8's large-object space, freshly mapped
 * each time: in the gateway, writing networkGraph's 1.4 MB answer took 10.6–12.5 ms as a string
 * and 5.9–7.1 ms as bytes (interleaved runs, 2026-11-25; page faults cost ~15–20 µs each here).
 * A Buffer body is written beside the headers, without that copy. Small answers stay strings:
 * their copy is cheap and the string write is the fastest path for them.
 */
import type { ServerResponse } from 'node:http';

/** Answers at least this many characters long are handed to the socket as bytes. */
export const LARGE_ANSWER_CHARS = 64 * 1024;

/** Ends `res` with `body` (UTF-8), as bytes when it is large. */
export function endWith(res: ServerResponse, body: string): void {
  res.end(body.length >= LARGE_ANSWER_CHARS ? Buffer.from(body, 'utf8') : body);
}
