/** Who the caller is: its verification with the platform, its address, its share of subscriptions, event search. */
import { ConfigError, area, custom, int, type SettingsOf } from './setting';

export const CALLER_VERIFY_TTL_MS = int({
  name: 'CALLER_VERIFY_TTL_MS',
  meaning: "how long the platform's acceptance of a token is trusted before asking again, counted from when the platform was asked, wherever the verdict is read from: a revoked token can still read (cached reads included) and keep its reservations at most this long, plus the clock difference between replicas ([Security](security.md#revocation-and-what-redis-is-trusted-with))",
  min: 1000,
  max: 3_600_000,
  fallback: 60_000,
});
export const CALLER_VERIFY_REFUSED_TTL_MS = int({
  name: 'CALLER_VERIFY_REFUSED_TTL_MS',
  meaning: 'how long a token the platform refused stays refused without asking again',
  min: 0,
  max: 600_000,
  fallback: 5000,
});
export const TRUST_PROXY_HOPS = int({
  name: 'TRUST_PROXY_HOPS',
  meaning: "proxies in front of the gateway that append to `X-Forwarded-For`: the client's address is read that many entries from the right ([Security](security.md))",
  min: 0,
  max: 10,
  fallback: 0,
  defaultText: "`0`: the socket's address",
});
export const CLIENT_ADDRESS_HEADER = custom<string | null>({
  name: 'CLIENT_ADDRESS_HEADER',
  meaning: "a header a trusted proxy sets to the client's address (e.g. `x-real-ip`), instead of `X-Forwarded-For`",
  defaultText: 'unset',
  rangeText: 'a header name',
  read(env) {
    const header = env.text('CLIENT_ADDRESS_HEADER');
    if (header === undefined) return null;
    if (!/^[A-Za-z0-9-]{1,64}$/.test(header)) throw new ConfigError(`CLIENT_ADDRESS_HEADER must be a header name; got ${JSON.stringify(header)}`);
    return header.toLowerCase();
  },
});
export const MAX_SUBSCRIPTIONS_PER_CALLER = int({
  name: 'MAX_SUBSCRIPTIONS_PER_CALLER',
  meaning: 'subscriptions one verified identity may run at once, every door and every token of it together (MCP follow tools included; past it: `RATE_LIMITED`)',
  min: 1,
  max: 100_000,
  fallback: 100,
});
export const MAX_ANONYMOUS_SUBSCRIPTIONS = int({
  name: 'MAX_ANONYMOUS_SUBSCRIPTIONS',
  meaning: 'subscriptions without a token (e.g. `heartbeat`) running at once in all; one client address holds a quarter',
  min: 1,
  max: 100_000,
  fallback: 200,
});
export const EVENTS_ALLOWED_ORGANIZATIONS = custom<ReadonlySet<string>>({
  name: 'EVENTS_ALLOWED_ORGANIZATIONS',
  meaning: "organization ids whose verified callers may read event fields (the installation's search service); others get `FORBIDDEN` before any search request",
  defaultText: "none; in sandbox mode, the sandbox's demo organization",
  rangeText: 'comma-separated organization ids',
  read(env) {
    const organizations = (env.text('EVENTS_ALLOWED_ORGANIZATIONS') ?? '')
      .split(',')
      .map((o) => o.trim())
      .filter((o) => o !== '');
    for (const organization of organizations) {
      if (!/^[\w.:-]{1,128}$/.test(organization)) throw new ConfigError(`EVENTS_ALLOWED_ORGANIZATIONS must be comma-separated organization ids; got ${JSON.stringify(organization)}`);
    }
    return new Set(organizations);
  },
});

export const CALLERS = area({
  title: 'Callers',
  intro: 'A caller is the identity the platform says its token belongs to, verified before anything is reserved for it ([Security](security.md)).',
  settings: {
    verifyTtlMs: CALLER_VERIFY_TTL_MS,
    refusedTtlMs: CALLER_VERIFY_REFUSED_TTL_MS,
    trustProxyHops: TRUST_PROXY_HOPS,
    clientAddressHeader: CLIENT_ADDRESS_HEADER,
    maxSubscriptionsPerCaller: MAX_SUBSCRIPTIONS_PER_CALLER,
    maxAnonymousSubscriptions: MAX_ANONYMOUS_SUBSCRIPTIONS,
    eventsAllowedOrganizations: EVENTS_ALLOWED_ORGANIZATIONS,
  },
});

export type CallerSettings = SettingsOf<typeof CALLERS>;
