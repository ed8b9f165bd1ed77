import { createServer } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { getGlobalDispatcher, request } from 'undici';
import { channel } from 'node:diagnostics_channel';
import { createPhaseClock, createPhaseRecorder, readPhaseSummary } from '../../../bench/phase-clock';

describe('phase recorder', () => {
  it('splits a request at its first call and its last body, medians over requests', () => {
    const r = createPhaseRecorder();
    const times: [number, number, number, number, number][] = [
      // start, first call, first body, last body, finish
      [0, 1, 11, 12, 13],
      [100, 102, 112, 112, 115],
      [200, 201, 211, 211, 212],
    ];
    times.forEach(([start, call, body1, body2, finish], i) => {
      const key = { i };
      r.requestStart(key, start);
      r.callCreated(call);
      r.callCreated(call + 0.5); // a second call in the same wave
      r.callDone(body1);
      r.callDone(body2);
      r.requestFinish(key, finish);
    });
    expect(r.read()).toEqual({ requests: 3, beforeMs: 1, upstreamMs: 10, afterMs: 1, totalMs: 13 });
    r.reset();
    expect(r.read()).toBeNull();
  });

  it('leaves out requests that overlapped another one, and requests with no upstream call', () => {
    const r = createPhaseRecorder();
    const a = {};
    const b = {};
    r.requestStart(a, 0);
    r.requestStart(b, 1);
    r.callCreated(2);
    r.callDone(12);
    r.requestFinish(a, 13);
    r.requestFinish(b, 14);
    const c = {};
    r.requestStart(c, 20);
    r.requestFinish(c, 21);
    expect(r.read()).toBeNull();
    const d = {};
    r.requestStart(d, 30);
    r.callCreated(31);
    r.callDone(41);
    r.requestFinish(d, 44);
    expect(r.read()).toEqual({ requests: 1, beforeMs: 1, upstreamMs: 10, afterMs: 3, totalMs: 14 });
  });

  it('reads real HTTP requests and undici calls from the diagnostics channels', async () => {
    // The upstream speaks HTTP over a bare socket: an http.Server in this process would be one more open request to the clock.
    const upstream = createNetServer((socket) =>
      socket.on('data', () => setTimeout(() => socket.write('HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n{}'), 20)),
    );
    await new Promise<void>((done) => upstream.listen(0, '127.0.0.1', done));
    const upstreamPort = (upstream.address() as { port: number }).port;
    const server = createServer((_req, res) => {
      setTimeout(() => {
        void request(`http://127.0.0.1:${upstreamPort}/`)
          .then((r) => r.body.text())
          .then(() => setTimeout(() => res.end('ok'), 5));
      }, 5);
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const port = (server.address() as { port: number }).port;
    const clock = createPhaseClock();
    const get = async (): Promise<void> => void (await (await request(`http://127.0.0.1:${port}/`)).body.text());
    try {
      // Not listening before start(): a request then is not counted.
      await get();
      expect(channel('undici:request:create').hasSubscribers).toBe(false);
      clock.start();
      expect(channel('undici:request:create').hasSubscribers).toBe(true);
      for (let i = 0; i < 3; i++) await get();
      const read = clock.stop();
      // Nor after stop(): nothing listens, so nothing is published.
      expect(channel('undici:request:create').hasSubscribers).toBe(false);
      expect(channel('http.server.request.start').hasSubscribers).toBe(false);
      expect(read?.requests).toBe(3);
      expect(read?.beforeMs).toBeGreaterThanOrEqual(4);
      expect(read?.upstreamMs).toBeGreaterThanOrEqual(19);
      expect(read?.afterMs).toBeGreaterThanOrEqual(4);
      expect(read?.totalMs).toBeGreaterThanOrEqual(28);
    } finally {
      await getGlobalDispatcher().close();
      await new Promise((done) => server.close(done));
      await new Promise((done) => upstream.close(done));
    }
  });

  it('checks a summary read over IPC', () => {
    expect(readPhaseSummary(null)).toBeNull();
    expect(readPhaseSummary({ requests: 2, beforeMs: 0.3, upstreamMs: 10, afterMs: 0.5, totalMs: 11 })).toEqual({ requests: 2, beforeMs: 0.3, upstreamMs: 10, afterMs: 0.5, totalMs: 11 });
    expect(() => readPhaseSummary({ requests: 2, beforeMs: 'x', upstreamMs: 10, afterMs: 0.5, totalMs: 11 })).toThrow(/phases\.beforeMs/);
    expect(() => readPhaseSummary([])).toThrow(/an object or null/);
  });
});
