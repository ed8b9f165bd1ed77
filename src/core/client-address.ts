/**
 * The client's address, as far as the gateway can trust it, and the key per-address caps count
 * it under. Behind a proxy the socket's address is the proxy's: with `TRUST_PROXY_HOPS` = n the
 * client is the n-th address of `X-Forwarded-For` counted from the right (each trusted proxy
 * appends the address it saw; anything further left is the client's own claim). With
 * `CLIENT_ADDRESS_HEADER` a single trusted proxy names the client in a header of its own. IPv6
 * addresses are grouped by their /64 (one host usually holds a whole /64), so a client cannot
 * get a fresh share per address.
 */
import { isIPv4, isIPv6 } from 'node:net';

export interface ClientAddressSettings {
  /** Proxies in front of the gateway that append to `X-Forwarded-For` (0: trust the socket only). */
  trustProxyHops: number;
  /** A header a trusted proxy sets to the client's address (lower case); null: none. */
  header: string | null;
}

type Headers = Readonly<Record<string, string | string[] | undefined>>;

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[value.length - 1] : value;
}

/** The client's address: the socket's, or what the trusted proxies say. */
export function clientAddressOf(socketAddress: string | undefined, headers: Headers, settings: ClientAddressSettings): string | undefined {
  if (settings.header !== null) {
    const named = single(headers[settings.header])?.trim();
    if (named) return normalize(named);
  }
  if (settings.trustProxyHops > 0) {
    const raw = headers['x-forwarded-for'];
    const hops = (Array.isArray(raw) ? raw.join(',') : (raw ?? ''))
      .split(',')
      .map((part) => part.trim())
      .filter((part) => part !== '');
    // The last hop is the address the nearest proxy saw; n trusted proxies vouch for n entries.
    const vouched = hops[hops.length - settings.trustProxyHops];
    if (vouched !== undefined) return normalize(vouched);
    // Fewer entries than trusted proxies: the leftmost one is still a proxy's word, not the client's.
    if (hops.length > 0) return normalize(hops[0] as string);
  }
  return socketAddress === undefined ? undefined : normalize(socketAddress);
}

/** An address without brackets, port or the IPv4-mapped prefix. */
function normalize(address: string): string {
  let a = address.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(a);
  if (bracketed?.[1] !== undefined) a = bracketed[1];
  else if (/^\d{1,3}(\.\d{1,3}){3}:\d+$/.test(a)) a = a.slice(0, a.lastIndexOf(':'));
  if (/^::ffff:\d{1,3}(\.\d{1,3}){3}$/i.test(a)) a = a.slice(7);
  return a.toLowerCase();
}

/** The key per-address caps count under: an IPv4 address as is, an IPv6 address's /64. */
export function addressKey(address: string | undefined): string {
  if (address === undefined) return 'address:unknown';
  if (isIPv4(address)) return `address:${address}`;
  if (isIPv6(address)) return `address:${ipv6Prefix64(address)}::/64`;
  return `address:${address}`;
}

/** The first four groups of an IPv6 address, expanded (`2001:db8:0:1`). */
function ipv6Prefix64(address: string): string {
  const [head = '', tail] = address.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  // An embedded IPv4 tail (`::ffff:1.2.3.4`) takes two groups; it never reaches the first four.
  const rightGroups = right.reduce((n, g) => n + (g.includes('.') ? 2 : 1), 0);
  const groups = tail === undefined ? left : [...left, ...Array<string>(Math.max(0, 8 - left.length - rightGroups)).fill('0'), ...right];
  return groups
    .slice(0, 4)
    .map((g) => (parseInt(g, 16) || 0).toString(16))
    .join(':');
}
