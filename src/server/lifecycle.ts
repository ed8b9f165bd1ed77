/**
 * How the gateway stops: an ordered list of what to close, each step awaited before the next.
 * The order is the rule (src/server/README.md): stop taking requests, end what never ends by
 * itself (subscriptions, event streams, provisionings, pollers), drain the requests in flight,
 * then release what they used (the doors' own, e.g. the HTTP front; the upstream pools, shared
 * state, the tracer). The doors take part as the one list (compose-doors.ts): each stops before the
 * drain and releases after it.
 */
import type { GatewayDoor } from '../doors/door';

export interface CloseStep {
  /** What closes (for the reader; errors name it). */
  name: string;
  close(): Promise<void> | void;
}

/** Runs the steps once, in order; a second call returns the first one's promise. */
export function closer(steps: () => readonly CloseStep[]): () => Promise<void> {
  let closing: Promise<void> | null = null;
  return () =>
    (closing ??= (async () => {
      for (const step of steps()) await step.close();
    })());
}

/** Waits until `inFlight()` is 0 or `timeoutMs` has passed. */
export async function drain(inFlight: () => number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (inFlight() > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
}

/** Each door stops taking work and ends what never ends by itself (sockets, event streams), in the list's order: before the drain. */
export function doorStops(doors: readonly GatewayDoor[]): CloseStep[] {
  return doors.map((door) => ({ name: `${door.name} door`, close: () => door.stop() }));
}

/** Each door frees what answering needed (e.g. Apollo Server): after the drain. */
export function doorReleases(doors: readonly GatewayDoor[]): CloseStep[] {
  return doors.flatMap((door) => (door.release ? [{ name: `${door.name} door (release)`, close: () => door.release?.() }] : []));
}
