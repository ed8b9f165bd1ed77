/**
 * The caller of one request as the owner of background work (a subscription's shared poller, a
 * provisioning run): a credential fingerprint, and fresh loaders with the caller's credentials on
 * a signal of the work's own. The token is a private field: resolvers, which see this object in
 * their context, can read neither it nor anything made from it but the fingerprint.
 */
import { setMaxListeners } from 'node:events';
import { createPollSession, type GatewayOwner, type PollSession } from '../context';
import { credentialFingerprint } from '../pollers';
import type { HttpLayer } from '../upstream/http';
import type { LoaderOptions } from '../upstream/loader-options';

/** Calls of one poll that may listen on its poller's signal at once (running or queued). */
const MAX_CALLS_LISTENING = 10_000;

export class CallerOwner implements GatewayOwner {
  readonly #authorization: string | undefined;
  readonly #http: HttpLayer;
  readonly #options: LoaderOptions;
  #fingerprint: string | undefined;

  constructor(authorization: string | undefined, http: HttpLayer, options: LoaderOptions) {
    this.#authorization = authorization;
    this.#http = http;
    this.#options = options;
  }

  /** Hashed when background work first asks (most requests start none). */
  get fingerprint(): string {
    return (this.#fingerprint ??= credentialFingerprint(this.#authorization));
  }

  /** Only a fleet that must resume a run elsewhere asks, and keeps what `seal` makes (encrypted) while the run lasts. */
  sealCredential(seal: (authorization: string) => string): string | null {
    return this.#authorization === undefined ? null : seal(this.#authorization);
  }

  session(signal: AbortSignal): PollSession {
    // A poll may send many calls side by side (a network's lists and member lists), each listening
    // on the poller's signal until it settles: more than Node's default of 10 is no leak.
    setMaxListeners(MAX_CALLS_LISTENING, signal);
    const calls = { count: 0 };
    // `fresh`: a poll is there to see changes, so the upstream cache revalidates every read it makes.
    return createPollSession(this.#http.forCaller({ authorization: this.#authorization, signal, calls, fresh: true }), this.#options, calls);
  }
}
