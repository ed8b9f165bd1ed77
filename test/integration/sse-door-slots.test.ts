/**
 * The SSE door's reservations cannot leak: a reserved stream whose client opens it and leaves at
 * once (reading its first bytes, or resetting right after its request, while graphql-sse is still
 * making the answer) gives its reservation back, and the caller's share is whole again. Raw TCP
 * clients on real sockets.
 */
import { connect } from 'node:net';
import { startStack, type Stack } from '../helpers/stack';
import { waitUntil } from '../helpers/wait';

const SHARE = 5;

let stack: Stack;
beforeAll(async () => {
  // Unopened reservations expire soon; one opened and then lost would be held for ever.
  stack = await startStack({ config: { transports: { sseReservationsPerCaller: SHARE, sseReservationTtlMs: 1000 } } });
});
afterAll(() => stack.close());

const reserve = async (): Promise<Response> => fetch(stack.streamUrl, { method: 'PUT', headers: { authorization: `Bearer ${stack.tokens.admin}` } });

/** Opens the reserved stream `token` over a raw socket and leaves as `how` says; resolves once the socket is closed. */
function openAndLeave(token: string, how: 'after-first-bytes' | 'reset'): Promise<void> {
  const url = new URL(stack.streamUrl);
  return new Promise((resolve) => {
    const socket = connect(Number(url.port), url.hostname);
    socket.on('error', () => undefined);
    socket.once('close', () => resolve());
    socket.on('data', () => socket.destroy());
    socket.once('connect', () => {
      socket.write(`GET ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nAccept: text/event-stream\r\nAuthorization: Bearer ${stack.tokens.admin}\r\nX-GraphQL-Event-Stream-Token: ${token}\r\n\r\n`);
      if (how === 'reset') socket.resetAndDestroy();
    });
  });
}

it.each(['after-first-bytes', 'reset'] as const)('gives a reservation back when its stream’s client leaves (%s), round after round', async (how) => {
  for (let round = 0; round < 4; round += 1) {
    const tokens = await waitUntil(async () => {
      const answers = await Promise.all(Array.from({ length: SHARE }, () => reserve()));
      return answers.every((r) => r.status === 201) ? Promise.all(answers.map((r) => r.text())) : null;
    }, () => `the caller's whole share of ${SHARE} reservations (round ${round}; ${JSON.stringify(stack.sseStats())})`);
    await Promise.all(tokens.map((token) => openAndLeave(token, how)));
    await waitUntil(() => stack.sseStats().reservations === 0, () => `no reservations held (${JSON.stringify(stack.sseStats())})`);
  }
  expect(stack.sseStats().open).toBe(0);
});
