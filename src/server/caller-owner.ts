/**
 * The caller of one request as the owner of background work (a subscription's shared poller, a
 * provisioning run): its verified identity's key (src/core/caller.ts), what its data are shared
 * by (`credential`: the verifier's keyed hash of the token, never the token), and fresh loaders
 * with the caller's credentials on a signal of the work's own. The token is a private field: resolvers,
 * which see this object in their context, can read neither it nor anything made from it.
 */
import { setMaxListeners } from 'node:events';
import { createPollSession, type GatewayOwner, type PollSession } from '../context';
import { ANONYMOUS_KEY, shareKeyOf, type Caller } from '../core/caller';
import type { HttpLayer } from '../upstream/http';
import type { LoaderOptions } from '../upstream/loader-options';

/** Calls of one poll that may listen on its poller's signal at once (running or queued). */
const MAX_CALLS_LISTENING = 10_000;

type OwnerCaller = Pick<Caller, 'authorization' | 'identity' | 'verify'>;

/** The keyed hash a token's data are shared under (src/core/verify.ts `tokenHash`). */
export type CredentialOf = (authorization: string) => string;

/** The last credential key made: the followers of one token (its sockets, its subscriptions) share one string, not one each. */
let lastKey: { hash: string; key: string } | null = null;

function credentialKey(hash: string): string {
  if (lastKey?.hash !== hash) lastKey = { hash, key: `cred:${hash}` };
  return lastKey.key;
}

export class CallerOwner implements GatewayOwner {
  readonly #caller: OwnerCaller;
  readonly #http: HttpLayer;
  readonly #options: LoaderOptions;
  readonly #knownKey: string | null;
  readonly #credential: string;

  constructor(caller: OwnerCaller, http: HttpLayer, options: LoaderOptions, credentialOf: CredentialOf, knownKey: string | null = null) {
    this.#caller = caller;
    this.#http = http;
    this.#options = options;
    this.#knownKey = knownKey;
    this.#credential = caller.authorization === undefined ? ANONYMOUS_KEY : credentialKey(credentialOf(caller.authorization));
  }

  /** A run resumed from the fleet's record: its owner's key is the one the record was started under. */
  static resumed(authorization: string, ownerKey: string, http: HttpLayer, options: LoaderOptions, credentialOf: CredentialOf): CallerOwner {
    return new CallerOwner({ authorization, identity: null, verify: () => Promise.resolve(null) }, http, options, credentialOf, ownerKey);
  }

  /**
   * The key its work is counted and found under: the verified identity's (`anonymous` without a
   * token). Asked before verification, it refuses (UNAUTHENTICATED) rather than key by the header.
   */
  get fingerprint(): string {
    return this.#knownKey ?? shareKeyOf(this.#caller);
  }

  /** What its data are shared under: the keyed hash of the token (`anonymous` without one), never the token. */
  get credential(): string {
    return this.#credential;
  }

  /** Verifies the caller's token with the platform (cached), before anything is reserved for it. */
  async verify(): Promise<void> {
    if (this.#knownKey === null) await this.#caller.verify();
  }

  /** Only a fleet that must resume a run elsewhere asks, and keeps what `seal` makes (encrypted) while the run lasts. */
  sealCredential(seal: (authorization: string) => string): string | null {
    return this.#caller.authorization === undefined ? null : seal(this.#caller.authorization);
  }

  session(signal: AbortSignal): PollSession {
    // A poll may send many calls side by side (a network's lists and member lists), each listening
    // on the poller's signal until it settles: more than Node's default of 10 is no leak.
    setMaxListeners(MAX_CALLS_LISTENING, signal);
    const calls = { count: 0 };
    // `fresh`: a poll is there to see changes, so the upstream cache revalidates every read it makes.
    return createPollSession(this.#http.forCaller({ authorization: this.#caller.authorization, signal, calls, fresh: true }), this.#options, calls);
  }
}
