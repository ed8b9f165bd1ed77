/**
 * The IDE page's Content-Security-Policy: the gateway's page policy (../csp.ts) with two
 * exceptions, each for a reason (GraphiQL 3 needs no eval, and the page has no inline script: its
 * settings are a JSON block, which is not executed):
 * - style-src 'nonce-…': GraphiQL's dialogs (react-remove-scroll) insert a <style> element at run
 *   time; the bundle tags it with the global `__webpack_nonce__`, which boot.js sets from the
 *   page's settings, so one fresh nonce per response replaces 'unsafe-inline';
 * - font-src data: GraphiQL's CSS inlines its fonts (and icons, under img-src) as data: URLs.
 */
import { pageContentSecurityPolicy } from '../csp';

export function ideContentSecurityPolicy(styleNonce: string): string {
  return pageContentSecurityPolicy({ style: [`'nonce-${styleNonce}'`], fonts: ['data:'] });
}
