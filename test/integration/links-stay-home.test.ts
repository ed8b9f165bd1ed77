/**
 * Links stay home: an upstream answer whose HAL link leads outside the service's base path (by
 * `..`, encoded dots or slashes, another service, another origin) is refused as
 * UPSTREAM_BAD_RESPONSE and never sent, with the caller's token or without. A pass-through
 * upstream in front of the sandbox rewrites the AppWANs' `services` links and sees every GET.
 */
import { isObject } from '../../src/core/parse';
import type { RunningGateway } from '../../src/server';
import { expectErrorAt, expectNoErrors, postGraphQL, startStack, startTestGateway, type Stack } from '../helpers/stack';
import { startRewritingUpstream, type RewritingUpstream } from './network/rewriting-upstream';

const QUERY = `{ networks(first: 1) { nodes { appWans(first: 1) { nodes { name services { nodes { name } } } } } } }`;

let stack: Stack;
let proxy: RewritingUpstream;
let gateway: RunningGateway;
/** What the `services` link of every AppWAN is rewritten to: a function of the proxy's origin and the link as sent. */
let link: ((origin: string, href: string) => string) | null = null;
/** Paths of the GETs the proxy passed on. */
const seen: string[] = [];

/** Rewrites `_links.services.href` in every object of a body. */
function rewriteLinks(value: unknown, origin: string): void {
  if (Array.isArray(value)) for (const item of value) rewriteLinks(item, origin);
  if (!isObject(value)) return;
  const links = value['_links'];
  const services = isObject(links) ? links['services'] : undefined;
  if (link !== null && isObject(services) && typeof services['href'] === 'string') services['href'] = link(origin, services['href']);
  for (const child of Object.values(value)) rewriteLinks(child, origin);
}

beforeAll(async () => {
  stack = await startStack({ seed: 'tiny' });
  proxy = await startRewritingUpstream(stack.sandbox.baseUrl, (url, body) => {
    seen.push(url.pathname);
    rewriteLinks(body, proxy.baseUrl);
  });
  gateway = await startTestGateway({ upstream: { baseUrl: proxy.baseUrl } });
});

afterAll(async () => {
  await gateway.close();
  await proxy.close();
  await stack.close();
});

beforeEach(() => {
  seen.length = 0;
});

const ask = () => postGraphQL(gateway.url, QUERY, undefined, { token: stack.tokens.admin });
const SERVICES_AT = ['networks', 'nodes', 0, 'appWans', 'nodes', 0, 'services'];

it('follows a link that stays under the service: relative, or absolute on the public host', async () => {
  for (const rewrite of [(_o: string, href: string) => new URL(href).pathname.replace(/^\/rest\/v1/, ''), (_o: string, href: string) => href.replace(/^http:\/\/[^/]+/, 'https://public.example')]) {
    link = rewrite;
    const data = expectNoErrors(await ask());
    expect(JSON.stringify(data)).toContain('"services":{"nodes":[');
    expect(seen.some((p) => /^\/rest\/v1\/networks\/[^/]+\/appWans\/[^/]+\/services$/.test(p))).toBe(true);
  }
});

it.each([
  ['relative `..` out of the service', () => '/../../admin/secret'],
  ['relative encoded dots', () => '/%2e%2e/%2E%2E/admin/secret'],
  ['an encoded slash', () => '/networks/..%2F..%2F..%2Fadmin/secret'],
  ['another service on the configured origin', (origin: string) => `${origin}/core/v2/organizations`],
  ['outside the base path on the configured origin', (origin: string) => `${origin}/admin/secret`],
  ['an absolute link that climbs out', (origin: string) => `${origin}/rest/v1/../admin/secret`],
  ['another origin', () => 'http://attacker.example/steal'],
])('refuses %s as UPSTREAM_BAD_RESPONSE and sends nothing there', async (_what, rewrite) => {
  link = rewrite;
  const res = await ask();
  expectErrorAt(res, SERVICES_AT, 'UPSTREAM_BAD_RESPONSE');
  expect(seen.length).toBeGreaterThan(0);
  expect(seen.filter((p) => !p.startsWith('/rest/v1/'))).toEqual([]);
});
