/**
 * The per-request context every resolver receives. Built once per GraphQL operation (and once per
 * subscription event) so DataLoader caches never outlive a request or cross callers.
 */
import type { OperationBudget } from './limits/budget';
import type { CallerPollers, PollOwner } from './pollers/types';
import type { ProvisioningJobs, ProvisioningOwner } from './provisioning/jobs';
import type { HttpClient } from './upstream/http-types';
import type { LoaderOptions } from './upstream/loader-options';
import { createNetworkLoaders, type NetworkLoaders } from './upstream/network/loaders';
import { createAuthLoaders, type AuthLoaders } from './upstream/auth/loaders';
import { createCoreV2Loaders, type CoreV2Loaders } from './upstream/core-v2/loaders';
import { createSearchLoaders, type SearchLoaders } from './upstream/search/loaders';
import type { Cancellation } from './core/cancellation';
import type { ProbeOptions, UpstreamCheck } from './upstream/probe';

/** Facts about the running gateway that resolvers may show (nothing secret). */
export interface GatewayInfo {
  version: string;
  sandbox: boolean;
  searchConfigured: boolean;
}

/** Gateway-level services shared by all requests (they hold no caller data). */
export interface GatewayServices {
  info: GatewayInfo;
  /** Probe every upstream origin without credentials, through the probe /readyz shares (src/upstream/probe.ts). */
  probeUpstreams(options: ProbeOptions): Promise<UpstreamCheck[]>;
  /** Settings the subscription adapters read (config.ts). */
  polling: {
    /** How long a `workflow` subscription waits for a business key the upstream does not know yet. */
    notFoundGraceMs: number;
    /** The pace bounds of `networkChanges` pollers, and where their upstream calls are counted. */
    network: NetworkPolling;
  };
  /** The `provisionAppWan` runs of this process, and how long one step may wait. */
  provisioning: { jobs: ProvisioningJobs<GatewayOwner>; stepTimeoutMs: number };
}

/** Settings and meter of the `networkChanges` pollers (config.ts, /metrics). */
export interface NetworkPolling {
  /** Pause after a change, and while something in the network is in progress. */
  intervalMs: number;
  /** Ceiling of the pause while the network is quiet. */
  maxIntervalMs: number;
  /** Counts one poll's upstream calls (retries included), whether it succeeded or not. */
  countPoll(upstreamCalls: number): void;
  /** A poll saw the network change (whoever changed it): cached reads of it are forgotten, fleet-wide. */
  changed?(networkId: string): void;
}

/**
 * What one poll of a shared poller works with: loaders as fresh as a request's, over an HTTP
 * client that carries the poller owner's credentials and the poller's own signal (not any one
 * subscriber's: subscribers come and go while the poller runs).
 */
export interface PollSession {
  loaders: { network: NetworkLoaders; coreV2: CoreV2Loaders };
  /** Upstream calls this poll has sent so far (retries included). */
  calls: CallCounter;
}

/** The caller as the owner of background work: pollers and provisionings see its fingerprint, never its token. */
export type GatewayOwner = PollOwner<PollSession> & ProvisioningOwner;

/** The shared pollers as one request sees them (bound to its caller's credential fingerprint). */
export type GatewayPollers = CallerPollers<PollSession>;

/** `calls` is the counter `http` counts its calls on (the server's HTTP layer, `CallerOptions.calls`). */
export function createPollSession(http: HttpClient, options: LoaderOptions, calls: CallCounter = { count: 0 }): PollSession {
  return { loaders: { network: createNetworkLoaders(http, options), coreV2: createCoreV2Loaders(http, options) }, calls };
}

/** Counts the upstream calls of one request, for the request log line and tests. */
export interface CallCounter {
  count: number;
  /** Of `count`, the changes (POST, PUT, DELETE) sent (the idempotency stage lets a key go only when none was). */
  changes?: number;
  /** Reads answered by the upstream cache or another request's call in flight (src/upstream/cache). */
  reads?: { hit: number; shared: number; revalidated: number };
  /** Reads answered past their freshness while the platform API's breaker was open (the answer says so). */
  stale?: { reads: number; maxAgeSeconds: number };
}

// A type alias, not an interface: graphql-sse wants a context assignable to Record<PropertyKey, unknown>.
export type GatewayContext = {
  /** The caller's HTTP client: their Authorization header, this request's signal and concurrency cap. */
  http: HttpClient;
  /** Fresh per request: batching and caching never cross requests or callers. */
  loaders: { network: NetworkLoaders; auth: AuthLoaders; coreV2: CoreV2Loaders; search: SearchLoaders };
  options: LoaderOptions;
  /** Aborted when the client goes away; pass it (or its `abortSignal()`) on to anything long-running. */
  cancellation: Cancellation;
  /** True when the caller sent an Authorization header (its value is only inside `http`). */
  authenticated: boolean;
  calls: CallCounter;
  /** This operation's running budget (src/limits/budget.ts): upstream calls, deadline, nodes, response bytes. */
  budget: OperationBudget;
  /**
   * Set by the execute stage when this answer comes in parts (an active `@defer`/`@stream` on a
   * door that delivers parts): only then may a `@stream`ed list be an async one (resolvers/stream.ts).
   */
  inParts?: boolean;
  gateway: GatewayServices;
  /** Follow a target through the poller shared by every subscriber with the same credentials (subscriptions). */
  pollers: GatewayPollers;
  /**
   * The caller as an owner of background work (a provisioning): a credential fingerprint, and
   * fresh loaders with the caller's credentials on a signal of the work's own, not this request's.
   */
  owner: GatewayOwner;
};

export interface ContextInput {
  http: HttpClient;
  options: LoaderOptions;
  cancellation: Cancellation;
  authenticated: boolean;
  calls: CallCounter;
  budget: OperationBudget;
  gateway: GatewayServices;
  pollers: GatewayPollers;
  owner: GatewayOwner;
  /** Resolves when this caller may read the installation's search service (a verified caller of an allowed organization). */
  admitEventSearch: () => Promise<void>;
}

/**
 * Each area's loaders, made when a resolver first asks for them: most operations touch one area,
 * and a one-record query would otherwise build ~30 DataLoaders it never uses. A class rather than
 * an object literal with getters (eslint.config.mjs says why).
 */
class AreaLoaders {
  private networkLoaders: NetworkLoaders | undefined;
  private authLoaders: AuthLoaders | undefined;
  private coreV2Loaders: CoreV2Loaders | undefined;
  private searchLoaders: SearchLoaders | undefined;

  constructor(private readonly input: ContextInput) {}

  get network(): NetworkLoaders {
    return (this.networkLoaders ??= createNetworkLoaders(this.input.http, this.input.options));
  }

  get auth(): AuthLoaders {
    return (this.authLoaders ??= createAuthLoaders(this.input.http, this.input.options));
  }

  get coreV2(): CoreV2Loaders {
    return (this.coreV2Loaders ??= createCoreV2Loaders(this.input.http, this.input.options));
  }

  get search(): SearchLoaders {
    return (this.searchLoaders ??= createSearchLoaders({
      http: this.input.http,
      configured: this.input.gateway.info.searchConfigured,
      authenticated: this.input.authenticated,
      organization: () => this.network.myOrganization(),
      admit: this.input.admitEventSearch,
    }));
  }

  /** Lets go of the loaders made so far (a later read makes fresh ones). */
  release(): void {
    this.networkLoaders = this.authLoaders = this.coreV2Loaders = this.searchLoaders = undefined;
  }
}

export function createContext(input: ContextInput): GatewayContext {
  // Fields named, not spread: spreads on the request path cost microseconds each (src/server/README.md).
  return {
    http: input.http,
    loaders: new AreaLoaders(input),
    options: input.options,
    cancellation: input.cancellation,
    authenticated: input.authenticated,
    calls: input.calls,
    budget: input.budget,
    gateway: input.gateway,
    pollers: input.pollers,
    owner: input.owner,
  };
}

/**
 * The request is answered: let go of its loaders, their caches and the upstream records in them.
 * Whatever still holds the context (Apollo's gateway path keeps it reachable until V8's next full
 * collection, see src/server/README.md) then holds a few small objects, not the request's data.
 */
export function releaseContext(context: GatewayContext): void {
  if (context.loaders instanceof AreaLoaders) context.loaders.release();
}
