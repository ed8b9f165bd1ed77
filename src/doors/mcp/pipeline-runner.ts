/**
 * The MCP door's runner: every tool call is an operation of the one pipeline (door `mcp`), with
 * the same rules, budgets, log line, metrics and trace as on /graphql.
 */
import type { PriceLimits } from '../../limits/limits';
import { isStream, type Pipeline } from '../../pipeline';
import { Cancellation } from '../../core/cancellation';
import { GatewayError } from '../../errors/codes';
import type { McpResult, McpRunner } from './runner';

const QUERIES_AND_MUTATIONS: ReadonlySet<'query' | 'mutation' | 'subscription'> = new Set(['query', 'mutation']);
const SUBSCRIPTIONS: ReadonlySet<'query' | 'mutation' | 'subscription'> = new Set(['subscription']);

/** The request's cancellation, aborted with the tool call's signal. */
function cancellationOf(signal: AbortSignal): Cancellation {
  const cancellation = new Cancellation();
  if (signal.aborted) cancellation.abort();
  else signal.addEventListener('abort', () => cancellation.abort(), { once: true });
  return cancellation;
}

function asResult(result: { data?: unknown; errors?: ReadonlyArray<unknown>; extensions?: Record<string, unknown> }): McpResult {
  const data = result.data;
  return {
    ...(typeof data === 'object' || data === null ? { data: data as Record<string, unknown> | null } : {}),
    ...(result.errors ? { errors: result.errors as McpResult['errors'] } : {}),
    ...(result.extensions ? { extensions: result.extensions } : {}),
  };
}

export function createPipelineMcpRunner(pipeline: Pipeline, limits: PriceLimits): McpRunner {
  return {
    async execute(request, who, signal) {
      const answer = await pipeline.handle(request, who, { door: 'mcp', cancellation: cancellationOf(signal), accepts: QUERIES_AND_MUTATIONS });
      if (isStream(answer)) {
        await answer.return();
        return { errors: [{ message: 'subscriptions run through the follow tools', extensions: { code: 'BAD_REQUEST' } }] };
      }
      return asResult(answer.result);
    },
    async *subscribe(request, who, signal) {
      const answer = await pipeline.handle(request, who, { door: 'mcp', cancellation: cancellationOf(signal), accepts: SUBSCRIPTIONS });
      if (!isStream(answer)) {
        yield asResult(answer.result);
        return;
      }
      const stop = (): void => void answer.return();
      signal.addEventListener('abort', stop, { once: true });
      try {
        for await (const event of answer) yield asResult(event);
      } finally {
        signal.removeEventListener('abort', stop);
        await answer.return();
      }
    },
    async verify(who) {
      try {
        if ((await who.verify()) !== null) return null;
        return { message: 'this gateway answers only callers with a token the platform accepts (Authorization: Bearer …)', extensions: { code: 'UNAUTHENTICATED' } };
      } catch (error) {
        // The verifier's refusals and outages, in the words a query gets; anything else is a defect.
        if (error instanceof GatewayError) return { message: error.message, extensions: { code: error.code } };
        throw error;
      }
    },
    validate(request) {
      const checked = pipeline.checkText(request.query, request);
      const max = { nodes: limits.maxNodes, upstreamCalls: limits.maxUpstreamCalls, depth: limits.maxDepth, aliases: limits.maxAliases };
      return { errors: checked.errors, cost: checked.estimate ? { estimated: checked.estimate, max } : null, operationType: checked.type };
    },
  };
}
