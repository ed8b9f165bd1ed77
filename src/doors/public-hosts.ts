/**
 * DNS rebinding: a web page whose host name an attacker points at the gateway's address (a
 * loopback gateway on a developer's machine, an internal one) talks to it as its own origin, so no
 * browser rule stops it. The defence is the server's: a request must name the gateway by one of
 * its public host names (`Host`, `PUBLIC_HOSTS`, loopback names by default), and a browser's
 * `Origin`, when sent, must be one of them too. Host names only, any port: the port a client sees
 * may differ from the one the gateway listens on (a proxy, a mapped container port).
 */
import type { IncomingMessage } from 'node:http';

/** The host name of a `Host` value or an origin's authority, lower case, IPv6 in brackets; null when it has none. */
function hostnameOf(authority: string): string | null {
  try {
    const { hostname } = new URL(`http://${authority}`);
    return hostname === '' ? null : hostname.toLowerCase();
  } catch {
    return null;
  }
}

/**
 * Why a request does not name the gateway by a public host (`Host`) or comes from a foreign
 * page (`Origin`); null when it may go on. `hosts` null: any host (the operator checks it in front).
 */
export function foreignRequest(req: IncomingMessage, hosts: ReadonlySet<string> | null): string | null {
  if (hosts === null) return null;
  const host = req.headers.host;
  const hostname = host === undefined ? null : hostnameOf(host);
  if (hostname === null || !hosts.has(hostname)) return `Invalid Host header: ${JSON.stringify(host ?? '')} is not one of this gateway's public hosts (PUBLIC_HOSTS)`;
  const origin = req.headers.origin;
  if (origin === undefined) return null;
  let originHost: string | null = null;
  try {
    const parsed = new URL(origin);
    originHost = parsed.protocol === 'http:' || parsed.protocol === 'https:' ? hostnameOf(parsed.host) : null;
  } catch {
    originHost = null;
  }
  if (originHost === null || !hosts.has(originHost)) return `Invalid Origin header: ${JSON.stringify(origin)} is not a page of this gateway's public hosts (PUBLIC_HOSTS)`;
  return null;
}
