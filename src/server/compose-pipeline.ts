/**
 * The one pipeline every door hands its operations to (src/pipeline), with what it is built from:
 * the executable schema (every field counts what it produces on its operation's budget), the
 * trusted documents when configured, persisted queries in the fleet's store, the shares of
 * subscriptions per identity and for anonymous callers, idempotency keys in the fleet's store, and the operation metrics labelled by the
 * names the gateway knows (trusted operations, its own clients', the MCP tools'), never callers'.
 */
import { join } from 'node:path';
import { idempotencyOf, type Config } from '../config';
import { releaseContext } from '../context';
import { defaultShare, SharedLimit } from '../core/shares';
import { readOperationFolder } from '../doors/mcp/catalog';
import { createIdempotency } from '../idempotency/idempotency';
import type { HeavyOperationGate } from '../limits/admission';
import { instrumentSchema } from '../limits/instrument';
import { introspectionRules } from '../limits/introspection';
import { loadManifest } from '../persisted/trusted-documents';
import { createPipeline } from '../pipeline';
import { createErrorFormatter } from '../pipeline/format';
import { createOperationMetrics, operationNamesOf, OWN_OPERATION_NAMES } from '../pipeline/operation-metrics';
import type { Logger } from '../pipeline/request-log';
import type { FleetState } from '../state';
import type { Tracer } from '../tracing';
import type { ContextFactory } from './compose-context';
import type { GatewayMetrics } from './metrics';
import { projectRoot } from './project-root';
import { buildSchema } from './schema';

export interface PipelineParts {
  readonly config: Config;
  readonly fleet: FleetState;
  readonly gate: HeavyOperationGate;
  readonly makeContext: ContextFactory;
  readonly logger: Logger;
  readonly tracer: Tracer | null;
  readonly metrics: GatewayMetrics;
  /** The verifier's keyed hash of a token (what an idempotency key's kept result is bound to). */
  readonly credentialOf: (authorization: string) => string;
}

export function composePipeline(parts: PipelineParts) {
  const { config, metrics } = parts;
  const schema = instrumentSchema(buildSchema());
  const trusted = config.documents.trustedDocuments !== undefined ? loadManifest(config.documents.trustedDocuments, config.documents.trustedDocumentsOnly) : null;
  const mcpOperationsDir = join(projectRoot(), 'operations', 'mcp');
  const operationMetrics = createOperationMetrics(metrics.registry, [
    ...OWN_OPERATION_NAMES,
    ...operationNamesOf(trusted?.documents() ?? []),
    ...operationNamesOf(readOperationFolder(mcpOperationsDir).map((source) => source.text)),
  ]);
  const formatErrors = createErrorFormatter({ development: config.server.development });
  const { maxDocumentBytes, maxDocumentTokens } = config.limits.price;
  const pipeline = createPipeline({
    schema,
    executor: config.server.executor,
    documentLimits: { maxBytes: maxDocumentBytes, maxTokens: maxDocumentTokens },
    trusted,
    extraRules: introspectionRules(config.server.introspection),
    apq: config.documents.apq ? parts.fleet.persistedQueries({ maxDocumentBytes, ttlMs: config.documents.apqTtlSeconds * 1000, maxSharedBytes: config.documents.apqSharedMaxBytes }) : null,
    priceLimits: config.limits.price,
    gate: parts.gate,
    formatErrors,
    createContext: parts.makeContext,
    releaseContext,
    subscriptionShares: {
      perCaller: new SharedLimit('subscriptionsPerCaller', { total: Number.MAX_SAFE_INTEGER, perCaller: config.callers.maxSubscriptionsPerCaller, setting: 'MAX_SUBSCRIPTIONS_PER_CALLER' }),
      anonymous: new SharedLimit('anonymousSubscriptions', {
        total: config.callers.maxAnonymousSubscriptions,
        perCaller: defaultShare(config.callers.maxAnonymousSubscriptions),
        setting: 'MAX_ANONYMOUS_SUBSCRIPTIONS',
      }),
    },
    logger: parts.logger,
    metrics: operationMetrics,
    tracer: parts.tracer,
    maxSubscriptionsPerConnection: config.subscriptions.maxSubscriptionsPerConnection,
    onSubscriptionCount: (door, delta) => metrics.subscriptionCount(door, delta),
    credentialOf: parts.credentialOf,
    idempotency: createIdempotency({ store: parts.fleet.idempotency(), ...idempotencyOf(config.idempotency), warn: (message) => parts.logger.warn(message) }),
  });
  return { schema, trusted, mcpOperationsDir, formatErrors, pipeline };
}
