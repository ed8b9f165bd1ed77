/**
 * The caller of one request, built by ONE function (`createCallerFactory(…)(input)`) for every
 * door: the `Authorization` value (forwarded upstream, never logged), the verified identity once
 * something asks for it, the request id, the trace context, the client's address and the key its
 * per-address caps count under, and the signal that fires when the client goes away.
 *
 * The identity is the platform's word, not the header's: `verify()` asks the platform once per
 * token (cached briefly, src/core/verify.ts). Everything reserved for a caller (a share, a quota,
 * a stream, a provisioning, a poller, a heavy turn) is keyed by `shareKeyOf(caller)`, which is the
 * identity's key, or one gateway-wide `anonymous` key for a caller without a token. Doors never
 * compute a fingerprint or a share key themselves.
 */
import { randomUUID } from 'node:crypto';
import { GatewayError } from '../errors/codes';
import { Cancellation } from './cancellation';
import { addressKey, clientAddressOf, type ClientAddressSettings } from './client-address';

/** Who the platform says the token belongs to. */
export interface Identity {
  /** What shares, quotas and owners are keyed by (a hash: the same for every token of one person). */
  readonly key: string;
  /** The caller's organization, as the platform named it. */
  readonly organizationId: string;
  /** The JWT's `sub` when the token is one, null otherwise. */
  readonly subject: string | null;
}

/** Verifies bearer values with the platform (src/core/verify.ts). */
export interface IdentityVerifier {
  /** The identity behind `authorization`; rejects UNAUTHENTICATED/FORBIDDEN when the platform refuses it, UPSTREAM_UNAVAILABLE when it cannot say. */
  verify(authorization: string): Promise<Identity>;
}

export interface Caller {
  /** The `Authorization` value (HTTP header, `connection_init` payload), normalized (`normalizeAuthorization`): forwarded upstream, never logged. */
  readonly authorization: string | undefined;
  /** The client's address (through the trusted proxies, if any). */
  readonly clientAddress: string | undefined;
  /** What per-address caps count under (IPv6 grouped by /64). */
  readonly addressKey: string;
  /** The id of the caller's log lines (the client's `x-request-id` when usable). */
  readonly requestId: string;
  /** W3C trace context the caller sent (`traceparent`, `tracestate`), when any. */
  readonly traceHeaders: Readonly<Record<string, string | undefined>>;
  /** Aborted when the client goes away (a request's connection, a socket): pass it on to upstream calls. */
  readonly cancellation: Cancellation;
  /** The verified identity, once `verify()` has answered; null before, and for an anonymous caller. */
  readonly identity: Identity | null;
  /** Verifies the token once (later calls share the answer); null for a caller without a token. */
  verify(): Promise<Identity | null>;
}

/** What a door reads off its wire to build a caller. */
export interface CallerInput {
  authorization: string | undefined;
  socketAddress: string | undefined;
  headers: Readonly<Record<string, string | string[] | undefined>>;
  /** Aborted when the client goes away; none: a fresh one the door never aborts. */
  cancellation?: Cancellation;
  /** The door made the request id already (HTTP sets its response header first). */
  requestId?: string;
}

export type CallerFactory = (input: CallerInput) => Caller;

/** Share key of every caller without a token: together they are one caller (gateway-wide caps). */
export const ANONYMOUS_KEY = 'anonymous';

/**
 * One spelling of one credential: surrounding whitespace dropped, inner runs of whitespace made
 * one space, and the `Bearer` scheme (case-insensitive by HTTP's rules) spelt `Bearer`. Every
 * hash, identity, quota, poller and cache key is derived from this form, so `bearer T` and
 * `Bearer  T` are the caller `Bearer T` is; it is also the form forwarded upstream.
 */
export function normalizeAuthorization(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const collapsed = value.trim().replace(/\s+/g, ' ');
  const bearer = /^bearer (.*)$/i.exec(collapsed);
  return bearer === null ? collapsed : `Bearer ${bearer[1] ?? ''}`;
}

function header(headers: CallerInput['headers'], name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/**
 * A fresh request id, as one flat string: Node's `randomUUID` builds its text by concatenation, a
 * rope of ~15 string pieces (~500 bytes) that a socket's caller would keep for the socket's life.
 */
export function freshRequestId(): string {
  return flatCopy(randomUUID());
}

/**
 * `text` as one flat string of its own. A string built by concatenation or slicing is a tree of
 * pieces (or a view into a larger string) that V8 keeps whole; a value kept for a socket's life
 * (its caller's id and token) is worth copying once.
 */
function flatCopy(text: string): string {
  return Buffer.from(text, 'utf8').toString('utf8');
}

/** The client's `x-request-id` when it is a usable id, or a fresh one. */
export function requestIdFrom(headers: CallerInput['headers']): string {
  const given = headers['x-request-id'];
  return typeof given === 'string' && /^[\w.:-]{1,128}$/.test(given) ? given : freshRequestId();
}

/** The normalized value a caller keeps (a socket's, for its whole life): one flat string, not the pieces normalizing made. */
function keptAuthorization(value: string | undefined): string | undefined {
  const normalized = normalizeAuthorization(value);
  return normalized === undefined ? undefined : flatCopy(normalized);
}

/** A caller that sent no trace context: one object for all of them. */
const NO_TRACE_HEADERS: Readonly<Record<string, string | undefined>> = Object.freeze({});

function traceHeadersOf(headers: CallerInput['headers']): Readonly<Record<string, string | undefined>> {
  const traceparent = header(headers, 'traceparent');
  const tracestate = header(headers, 'tracestate');
  return traceparent === undefined && tracestate === undefined ? NO_TRACE_HEADERS : { traceparent, tracestate };
}

class VerifiedCaller implements Caller {
  identity: Identity | null = null;
  #address: { clientAddress: string | undefined; addressKey: string } | null = null;

  constructor(
    readonly authorization: string | undefined,
    readonly requestId: string,
    readonly traceHeaders: Readonly<Record<string, string | undefined>>,
    readonly cancellation: Cancellation,
    private readonly verifier: IdentityVerifier,
    // Only what the address is worked out from (not the input: it holds the token as sent).
    private socketAddress: string | undefined,
    private headers: CallerInput['headers'] | null,
    private readonly addressSettings: ClientAddressSettings,
  ) {}

  // Worked out when a cap asks (most requests never do): the request path stays as cheap as before.
  get clientAddress(): string | undefined {
    return this.address().clientAddress;
  }

  get addressKey(): string {
    return this.address().addressKey;
  }

  private address(): { clientAddress: string | undefined; addressKey: string } {
    if (this.#address === null) {
      const headers = this.headers;
      const clientAddress = headers === null ? undefined : clientAddressOf(this.socketAddress, headers, this.addressSettings);
      this.#address = { clientAddress, addressKey: addressKey(clientAddress) };
      // Its headers are not needed again: a caller that lives long (a socket's) does not keep them.
      this.headers = null;
      this.socketAddress = undefined;
    }
    return this.#address;
  }

  verify(): Promise<Identity | null> {
    const authorization = this.authorization;
    if (authorization === undefined) return Promise.resolve(null);
    // Asked of the verifier each time (its cache answers at once): a caller that lives long (a
    // WebSocket) is held to the verdict's lifetime, not to the verdict it got when it connected.
    return this.verifier.verify(authorization).then(
      (identity) => (this.identity = identity),
      (error: unknown) => {
        this.identity = null;
        throw error;
      },
    );
  }
}

/** The one function every door builds its caller with. */
export function createCallerFactory(verifier: IdentityVerifier, address: ClientAddressSettings): CallerFactory {
  return (input) =>
    new VerifiedCaller(
      keptAuthorization(input.authorization),
      input.requestId ?? requestIdFrom(input.headers),
      traceHeadersOf(input.headers),
      input.cancellation ?? new Cancellation(),
      verifier,
      input.socketAddress,
      input.headers,
      address,
    );
}

/**
 * The key a caller's shares and quotas count under: its verified identity's, or `anonymous`.
 * A caller with a token that was not verified yet has none: asking is a defect (the slot would be
 * keyed by what the header claims), answered UNAUTHENTICATED rather than counted.
 */
export function shareKeyOf(caller: Pick<Caller, 'authorization' | 'identity'>): string {
  if (caller.identity) return caller.identity.key;
  if (caller.authorization === undefined) return ANONYMOUS_KEY;
  throw new GatewayError('UNAUTHENTICATED', 'the token was not verified before something was reserved for it');
}

/** A caller for work the gateway starts itself (tests, a resumed run): no address, no trace. */
export function backgroundCaller(authorization: string | undefined, identity: Identity | null): Caller {
  return {
    authorization,
    clientAddress: undefined,
    addressKey: addressKey(undefined),
    requestId: freshRequestId(),
    traceHeaders: NO_TRACE_HEADERS,
    cancellation: new Cancellation(),
    identity,
    verify: () => Promise.resolve(identity),
  };
}
