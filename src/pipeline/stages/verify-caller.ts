/**
 * The caller's token verified with the platform (src/core/verify.ts) before anything is reserved
 * for it; a refusal (or an outage) becomes the GraphQL error the door answers, with its HTTP status.
 * Stages call it where they reserve something (a heavy turn, a subscription's share).
 */
import { GraphQLError } from 'graphql';
import { GatewayError } from '../../errors/codes';
import type { Caller } from '../types';

const VERIFY_STATUS: Partial<Record<string, number>> = { UNAUTHENTICATED: 401, FORBIDDEN: 403, UPSTREAM_UNAVAILABLE: 503 };

export async function verifyCaller(caller: Caller): Promise<void> {
  try {
    await caller.verify();
  } catch (error) {
    if (!(error instanceof GatewayError)) throw error;
    throw new GraphQLError(error.message, { extensions: { code: error.code, http: { status: VERIFY_STATUS[error.code] ?? 500 } }, originalError: error });
  }
}
