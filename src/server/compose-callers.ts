/**
 * Who each request's caller is (composeGateway's first part): the verifier, which asks the
 * platform once per token and caches the verdict (src/core/verify.ts, fleet-shared verdicts with
 * `FLEET_TOKEN_KEY`); the one Caller factory every door builds its caller with (src/core/caller.ts);
 * and the per-identity key the upstream quota counts under.
 *
 * The verifier asks through the HTTP layer, and the HTTP layer's quota asks the verifier: the
 * HTTP layer is built with `quotaKeyOf` and handed back with `askThrough` once it exists.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { Counter, type Registry } from 'prom-client';
import type { Config } from '../config';
import { createCallerFactory, type CallerFactory } from '../core/caller';
import { createCallerVerifier, type CallerVerifier } from '../core/verify';
import { GatewayError } from '../errors/codes';
import type { FleetState } from '../state';
import type { HttpLayer } from '../upstream/http';
import { identifyCaller } from '../upstream/identity/identify';

export interface CallerParts {
  readonly verifier: CallerVerifier;
  readonly callerOf: CallerFactory;
  /** The quota's key for a token: its identity's; tokens the platform refuses share one (their calls answer 401 anyway). */
  quotaKeyOf(authorization: string): Promise<string>;
  /** The HTTP layer the verifier asks the platform through; until then a verification fails. */
  askThrough(httpLayer: HttpLayer): void;
}

export function composeCallers(config: Config, fleet: FleetState, registry: Registry): CallerParts {
  // The hash key is the fleet's when verdicts are shared (derived from FLEET_TOKEN_KEY), else this process's own.
  const hashKey = config.fleet.tokenKey ? createHmac('sha256', config.fleet.tokenKey).update('netgraph caller verdicts').digest() : randomBytes(32);
  const verifications = new Counter({
    name: 'netgraph_caller_verifications_total',
    help: 'Tokens verified with the platform (identity/v1), by outcome: accepted, refused, unavailable. Cached verdicts are not counted.',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  let identify: (authorization: string) => ReturnType<typeof identifyCaller> = () => Promise.reject(new Error('not started'));
  const verifier = createCallerVerifier({
    hashKey,
    ttlMs: config.callers.verifyTtlMs,
    refusedTtlMs: config.callers.refusedTtlMs,
    store: fleet.verdicts,
    identify: (authorization) => identify(authorization),
    onIdentify: (outcome) => verifications.inc({ outcome }),
  });
  return {
    verifier,
    callerOf: createCallerFactory(verifier, { trustProxyHops: config.callers.trustProxyHops, header: config.callers.clientAddressHeader }),
    quotaKeyOf: (authorization) =>
      verifier.verify(authorization).then(
        (identity) => identity.key,
        (error: unknown) => {
          if (error instanceof GatewayError && error.code !== 'UPSTREAM_UNAVAILABLE') return 'refused';
          throw error;
        },
      ),
    askThrough(httpLayer) {
      identify = (authorization) => identifyCaller(httpLayer, authorization);
    },
  };
}
