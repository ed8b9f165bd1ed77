/**
 * The contract of the provisioning service (`ProvisioningJobs`: start, get, watch, running, close)
 * as the resolvers and the server see it. Each provisioning belongs to the owner that started it
 * (its verified identity's key, an opaque string here: nobody else can read or follow it). Written once in lifecycle.ts, over a
 * `ProvisioningStore` (store.ts): in this process, src/state/memory; in a fleet, src/state/redis.
 */
import { GatewayError } from '../errors/codes';
import type { ProvisioningRecord, StepAction } from './records';
import type { RunHandle } from './runner';

export { ownerRetained, refusalOf, type ProvisioningLimits } from './limits';

/** Who starts a provisioning: its verified identity's key, and the credential itself only to seal it. */
export interface ProvisioningOwner {
  /** The owner's key (src/core/caller.ts `shareKeyOf`): only read after `verify()`. */
  readonly fingerprint: string;
  /** Verifies the owner's token with the platform (cached); rejects UNAUTHENTICATED when refused. */
  verify(): Promise<void>;
  /** The caller's credential passed through `seal` (a fleet keeps it, encrypted, while the run lasts); null when there is none. */
  sealCredential(seal: (authorization: string) => string): string | null;
}

/** Runs (or resumes) a provisioning's steps with `owner`'s credentials; progress goes through `handle`. */
export type ProvisioningRun<O> = (owner: O, handle: RunHandle, actions: readonly StepAction[], signal: AbortSignal) => Promise<void>;

export interface ProvisioningJobs<O extends ProvisioningOwner = ProvisioningOwner> {
  /** Registers a new provisioning, starts its run in the background and answers its record. */
  start(owner: O, fields: Omit<ProvisioningRecord, 'id'>, actions: readonly StepAction[]): Promise<ProvisioningRecord>;
  /** A copy of the record; null when unknown to this owner. */
  get(id: string, owner: string): Promise<ProvisioningRecord | null>;
  /** The record now, then after each change, until it finished or `signal` aborts. NOT_FOUND when unknown to this owner. */
  watch(id: string, owner: string, signal: AbortSignal): AsyncGenerator<ProvisioningRecord>;
  /** Runs in progress in this process (for /metrics). */
  running(): number;
  /** Stops every run of this process (gateway shutdown). */
  close(): Promise<void>;
}

export const snapshot = (record: ProvisioningRecord): ProvisioningRecord => structuredClone(record);

/** The error every store answers for a provisioning this owner cannot see. */
export const notFound = (id: string): GatewayError => new GatewayError('NOT_FOUND', `no provisioning ${id} started with this token`);

/** The record's run failed with a bug (the runner reports step failures itself): say so on the record. */
export function markCrashed(record: ProvisioningRecord, error: unknown): void {
  record.state = 'FAILED';
  record.error ??= { code: 'INTERNAL_SERVER_ERROR', message: error instanceof Error ? error.message : String(error), outcomeUnknown: false };
  record.finishedAt ??= new Date().toISOString();
}
