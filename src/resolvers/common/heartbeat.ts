/** `Subscription.heartbeat`: a tick every N seconds until the client leaves. */
import { BadInputError } from '../../errors/codes';

export interface HeartbeatTick {
  sequence: number;
  /** RFC 3339, UTC. */
  at: string;
}

export const HEARTBEAT_MIN_SECONDS = 1;
export const HEARTBEAT_MAX_SECONDS = 3600;

/** Ticks until `signal` aborts or the consumer returns; the first tick comes right away. */
export async function* heartbeat(intervalSeconds: number, signal: AbortSignal): AsyncGenerator<HeartbeatTick> {
  if (!Number.isInteger(intervalSeconds) || intervalSeconds < HEARTBEAT_MIN_SECONDS || intervalSeconds > HEARTBEAT_MAX_SECONDS) {
    throw new BadInputError('intervalSeconds', `intervalSeconds must be between ${HEARTBEAT_MIN_SECONDS} and ${HEARTBEAT_MAX_SECONDS}`);
  }
  for (let sequence = 1; !signal.aborted; sequence += 1) {
    yield { sequence, at: new Date().toISOString() };
    await sleep(intervalSeconds * 1000, signal);
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}
