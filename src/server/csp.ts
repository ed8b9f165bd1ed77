/**
 * The Content-Security-Policy of the gateway's pages (the IDE, the network map). Everything comes
 * from the gateway itself ('self'): no inline script, no eval, no frames, images from the page or
 * data: URLs. connect-src 'self' covers fetch to /graphql and, in CSP Level 3 browsers, ws:/wss:
 * to the same host for subscriptions. A page adds a source only for a reason its caller gives.
 */
export interface PageSources {
  /** Extra style sources (e.g. a per-response nonce). */
  style?: readonly string[];
  /** Font sources beside 'self'; without it the page loads no fonts. */
  fonts?: readonly string[];
}

export function pageContentSecurityPolicy(sources: PageSources = {}): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    ["style-src 'self'", ...(sources.style ?? [])].join(' '),
    ...(sources.fonts ? [["font-src 'self'", ...sources.fonts].join(' ')] : []),
    "img-src 'self' data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}
