/** Sequential round trips of a fake upstream, for the loaders' plan and prefetch tests. */
import type { HttpClient } from '../../../src/upstream/http-types';

/**
 * Holds every call until the previous round's answers are all delivered: `byRound()` lists the
 * paths sent in each sequential round trip (sorted within a round).
 */
export function inRounds(inner: HttpClient) {
  let round = 0;
  const sent: { path: string; round: number }[] = [];
  const held: Array<() => void> = [];
  const settle = async () => {
    for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
  };
  const http: HttpClient = {
    send: (req) => {
      sent.push({ path: req.path, round });
      return new Promise((resolve, reject) => held.push(() => void inner.send(req).then(resolve, reject)));
    },
  };
  return {
    http,
    async run<T>(work: () => Promise<T>): Promise<T> {
      const result = work();
      await settle();
      while (held.length > 0) {
        round++;
        for (const release of held.splice(0)) release();
        await settle();
      }
      return result;
    },
    byRound: () => Array.from({ length: round }, (_, r) => sent.filter((c) => c.round === r).map((c) => c.path).sort()),
  };
}
