/**
 * The page's Content-Security-Policy. Everything comes from the gateway itself ('self'); the
 * page has no inline script (its settings are a JSON block, which is not executed) and GraphiQL 3
 * needs no eval. Exceptions, each for a reason:
 * - style-src 'nonce-…': GraphiQL's dialogs (react-remove-scroll) insert a <style> element at run
 *   time; the bundle tags it with the global `__webpack_nonce__`, which boot.js sets from the
 *   page's settings, so one fresh nonce per response replaces 'unsafe-inline';
 * - font-src/img-src data: GraphiQL's CSS inlines its fonts and icons as data: URLs.
 * connect-src 'self' covers fetch to the API and, in CSP Level 3 browsers, ws:/wss: to the same
 * host for subscriptions.
 */
export function ideContentSecurityPolicy(styleNonce: string): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    `style-src 'self' 'nonce-${styleNonce}'`,
    "font-src 'self' data:",
    "img-src 'self' data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}
