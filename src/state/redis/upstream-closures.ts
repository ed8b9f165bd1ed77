/**
 * Openings of platform APIs shared by the fleet: when one replica's breaker opens, or the platform
 * answers it with a 503 and `Retry-After`, every replica stops calling that API for the same time.
 * Each opening is published on a channel (heard at once) and kept in a key that expires with it
 * (read by a replica whose link comes up later). What travels is the API's name, a reason and the
 * time left.
 *
 * A 429's window is the credential's: it travels on its own channel as the API, the credential's
 * keyed hash and the time left — never the credential. The hash key is derived from
 * `FLEET_TOKEN_KEY` (`credentialSecret`), so every replica keys a credential alike; without it each
 * replica keys with its own, and its credential windows stay its own. They are not kept in keys: a
 * replica that was away hears the credential's next 429 itself. In one process nothing is shared
 * (memory/upstream-closures.ts).
 */
import { createHmac } from 'node:crypto';
import { parseJsonObject } from '../../core/parse';
import { UPSTREAM_APIS } from '../../core/upstream-apis';
import type { ClosureBoard, OpenReason, UpstreamApi } from '../../upstream/health';
import { PREFIX, type RedisLink } from './link';

const CHANNEL = `${PREFIX}upstream-closed`;
const CREDENTIAL_CHANNEL = `${PREFIX}upstream-credential-closed`;
/** A credential key as the HTTP layer makes it (hex of a keyed hash, `anonymous`, or the name of an API that gets the gateway's own credentials); anything else is not heard. */
const HASHED_KEY = /^[0-9a-f]{32}$/;
const NAMED_KEYS: readonly string[] = ['anonymous', ...UPSTREAM_APIS.filter((api) => !api.forwardsToken).map((api) => api.name)];
const isCredentialKey = (value: unknown): value is string => typeof value === 'string' && (HASHED_KEY.test(value) || NAMED_KEYS.includes(value));
const REASONS: readonly OpenReason[] = ['failures', 'rate-limited', 'unavailable'];

type Heard = (api: UpstreamApi, remainingMs: number, reason: OpenReason) => void;

export class RedisClosureBoard implements ClosureBoard {
  readonly credentialSecret: Buffer | null;

  constructor(
    private readonly link: RedisLink,
    fleetKey: Buffer | null = null,
  ) {
    this.credentialSecret = fleetKey === null ? null : createHmac('sha256', fleetKey).update('netgraph upstream credential windows').digest();
  }

  announceCredential(api: UpstreamApi, credentialKey: string, remainingMs: number): void {
    const ms = Math.ceil(remainingMs);
    // Without the fleet's key the replicas' keys for one credential differ: nothing to share.
    if (this.credentialSecret === null || !this.link.isUp || ms <= 0) return;
    this.link.client.publish(CREDENTIAL_CHANNEL, JSON.stringify({ api, credential: credentialKey, ms, from: this.link.replicaId })).catch(() => undefined);
  }

  listenCredentials(apis: readonly UpstreamApi[], heard: (api: UpstreamApi, credentialKey: string, remainingMs: number) => void): void {
    if (this.credentialSecret === null) return;
    void this.link.subscribe(CREDENTIAL_CHANNEL, (message) => {
      const window = parseCredentialWindow(message, apis);
      if (window !== null && window.from !== this.link.replicaId) heard(window.api, window.credential, window.ms);
    });
  }

  announce(api: UpstreamApi, remainingMs: number, reason: OpenReason): void {
    const ms = Math.ceil(remainingMs);
    if (!this.link.isUp || ms <= 0) return;
    const message = JSON.stringify({ api, reason, ms, from: this.link.replicaId });
    this.link.client
      .multi()
      .set(`${CHANNEL}:${api}`, reason, 'PX', ms)
      .publish(CHANNEL, message)
      .exec()
      .catch(() => undefined);
  }

  listen(apis: readonly UpstreamApi[], heard: Heard): void {
    void this.link.subscribe(CHANNEL, (message) => {
      const opening = parseOpening(message, apis);
      if (opening !== null && opening.from !== this.link.replicaId) heard(opening.api, opening.ms, opening.reason);
    });
    const recall = (): void => void this.recall(apis, heard);
    this.link.onUp(recall);
    if (this.link.isUp) recall();
  }

  /** What is in force now (for a replica that was away when it was announced). */
  private async recall(apis: readonly UpstreamApi[], heard: Heard): Promise<void> {
    try {
      const pipeline = this.link.client.pipeline();
      for (const api of apis) pipeline.get(`${CHANNEL}:${api}`).pttl(`${CHANNEL}:${api}`);
      const replies = (await pipeline.exec()) ?? [];
      apis.forEach((api, i) => {
        const reason = replies[2 * i]?.[1];
        const ms = replies[2 * i + 1]?.[1];
        if (isReason(reason) && typeof ms === 'number' && ms > 0) heard(api, ms, reason);
      });
    } catch {
      // Redis went away again: each replica learns for itself until it is back.
    }
  }
}

function isReason(value: unknown): value is OpenReason {
  return typeof value === 'string' && (REASONS as readonly string[]).includes(value);
}

/** A message of the openings' channel, or null when off the format (an API not among `apis`, the table's gates). */
export function parseOpening(message: string, apis: readonly UpstreamApi[]): { api: UpstreamApi; reason: OpenReason; ms: number; from: string } | null {
  const value = parseJsonObject(message);
  if (value === null) return null;
  const api = apis.find((a) => a === value['api']);
  const { reason, ms, from } = value;
  if (api === undefined || !isReason(reason) || typeof ms !== 'number' || !Number.isFinite(ms) || ms <= 0 || typeof from !== 'string') return null;
  // A message cannot close an API for longer than an hour, whatever it says.
  return { api, reason, ms: Math.min(ms, 3_600_000), from };
}

/** A message of the credential windows' channel, or null when off the format (an API not among `apis`, a key the HTTP layer does not make). */
export function parseCredentialWindow(message: string, apis: readonly UpstreamApi[]): { api: UpstreamApi; credential: string; ms: number; from: unknown } | null {
  const value = parseJsonObject(message);
  if (value === null) return null;
  const api = apis.find((a) => a === value['api']);
  const { credential, ms, from } = value;
  if (api === undefined || !isCredentialKey(credential) || typeof ms !== 'number' || !Number.isFinite(ms) || ms <= 0) return null;
  return { api, credential, ms: Math.min(ms, 3_600_000), from };
}
