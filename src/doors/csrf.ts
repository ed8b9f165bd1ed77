/**
 * Cross-site request forgery: a browser sends a "simple" request (no CORS preflight) from any page
 * to any site, so a POST with a form or `text/plain` body (`text/plain; x=application/json`
 * included) is one no client of this gateway needs and any web page can forge. The rule and words
 * are Apollo Server's CSRF prevention, which guards `/graphql`; every other door that takes a POST
 * body applies this same rule, so a refusal reads alike on each.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { GraphQLError } from 'graphql';
import { ErrorCode } from '../errors/codes';

/** The content types a browser sends cross-site without a preflight (the Fetch standard's CORS-safelisted ones). */
const SIMPLE_CONTENT_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain'];
/** A non-empty one of these shows the request was preflighted (a page cannot set them cross-site without asking). */
const PREFLIGHT_HEADERS = ['x-apollo-operation-name', 'apollo-require-preflight'];

/** The refusal of a request a page could have forged (no content type, or a simple one, and no preflight header); null when it is fine. */
export function csrfRefusal(headers: IncomingHttpHeaders): GraphQLError | null {
  const contentType = headers['content-type'];
  if (contentType !== undefined) {
    const essence = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
    if (!SIMPLE_CONTENT_TYPES.includes(essence)) return null;
  }
  if (PREFLIGHT_HEADERS.some((name) => (headers[name]?.length ?? 0) > 0)) return null;
  return new GraphQLError(
    `This operation has been blocked as a potential Cross-Site Request Forgery (CSRF). Please either specify a 'content-type' header (with a type that is not one of ${SIMPLE_CONTENT_TYPES.join(', ')}) or provide a non-empty value for one of the following headers: ${PREFLIGHT_HEADERS.join(', ')}\n`,
    { extensions: { code: ErrorCode.BAD_REQUEST, http: { status: 400 } } },
  );
}
