/**
 * The per-operation context every door's operations run with (composeGateway's context factory):
 * the caller's HTTP client (its token, the request's cancellation, the operation's budget and
 * trace), fresh loaders, the caller as owner of background work, its pollers, and whether it may
 * read event fields (only callers of the organizations the operator allowed, `EVENTS_ALLOWED_ORGANIZATIONS`).
 */
import type { Config } from '../config';
import { createContext, type GatewayContext, type GatewayServices, type PollSession } from '../context';
import type { Cancellation } from '../core/cancellation';
import { GatewayError } from '../errors/codes';
import { OperationBudget } from '../limits/budget';
import type { Caller } from '../pipeline';
import type { PollerRegistry } from '../pollers';
import type { OperationSpan } from '../tracing';
import type { HttpLayer } from '../upstream/http';
import type { LoaderOptions } from '../upstream/loader-options';
import { CallerOwner, type CredentialOf } from './caller-owner';

export type ContextFactory = (caller: Caller, cancellation: Cancellation, calls: { count: number }, trace?: OperationSpan) => GatewayContext;

export interface ContextParts {
  readonly config: Pick<Config, 'limits' | 'callers'>;
  readonly httpLayer: HttpLayer;
  readonly loaderOptions: LoaderOptions;
  readonly services: GatewayServices;
  readonly pollers: PollerRegistry<PollSession>;
  /** What a caller's data are shared under: the verifier's keyed hash of its token. */
  readonly credentialOf: CredentialOf;
  /** In sandbox mode, the seed's first organization (the demo callers') may read events too. */
  readonly sandboxOrganizationIds: readonly string[];
}

export function createContextFactory(parts: ContextParts): ContextFactory {
  const { config, httpLayer, loaderOptions, services, pollers } = parts;
  const eventOrganizations = new Set([...config.callers.eventsAllowedOrganizations, ...parts.sandboxOrganizationIds]);
  const admitEventSearch = async (caller: Caller): Promise<void> => {
    const identity = await caller.verify();
    if (identity === null || !eventOrganizations.has(identity.organizationId)) {
      throw new GatewayError('FORBIDDEN', "event search reads the installation's search service: only callers of the organizations the operator allowed (EVENTS_ALLOWED_ORGANIZATIONS) may read it");
    }
  };
  return (caller, cancellation, calls, trace) => {
    const authorization = caller.authorization;
    // The token stays private to the owner: pollers and background work see its identity's key, resolvers see neither.
    const owner = new CallerOwner(caller, httpLayer, loaderOptions, parts.credentialOf);
    const budget = new OperationBudget(config.limits.budget, cancellation);
    return createContext({
      http: httpLayer.forCaller({ authorization, signal: cancellation, calls, budget, trace }),
      budget,
      options: loaderOptions,
      cancellation,
      authenticated: authorization !== undefined,
      calls,
      gateway: services,
      pollers: pollers.forOwner(owner),
      owner,
      admitEventSearch: () => admitEventSearch(caller),
    });
  };
}
