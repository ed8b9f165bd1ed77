/**
 * How the gateway stops: an ordered list of what to close, each step awaited before the next.
 * The order is the rule (src/server/README.md): stop taking requests, end what never ends by
 * itself (subscriptions, event streams, provisionings, pollers), drain the requests in flight,
 * then release what they used (the HTTP front, the upstream pools, shared state, the tracer).
 */

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
