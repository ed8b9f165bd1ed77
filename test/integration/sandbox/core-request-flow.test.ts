import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { CallLog } from '../../../src/sandbox/core/call-log';
import { Faults } from '../../../src/sandbox/core/faults';
import { createRequestListener } from '../../../src/sandbox/core/server';
import { TokenService } from '../../../src/sandbox/core/tokens';
import { HttpError, type SandboxRoute } from '../../../src/sandbox/core/types';

/** A bare request flow with test routes: a handler that crashes, one that validates, one that echoes. */
let server: Server;
let base: string;
let counter = 0;
const tokens = new TokenService('test');
const token = tokens.sign({ sub: 'someone' });

const routes: SandboxRoute[] = [
  { method: 'GET', template: '/t/crash', auth: 'none', handle: () => { throw new TypeError('boom'); } },
  { method: 'GET', template: '/t/async-crash', auth: 'none', handle: async () => Promise.reject(new Error('async boom')) },
  {
    method: 'POST',
    template: '/t/counter',
    auth: 'bearer',
    handle(req) {
      const body = req.json;
      // Validate fully before mutating: a bad body leaves the counter alone.
      if (typeof body !== 'object' || body === null || !('add' in body) || typeof body.add !== 'number') throw new HttpError(400, 'add must be a number');
      counter += body.add;
      return { status: 200, json: { counter, caller: req.caller?.identityId } };
    },
  },
  { method: 'POST', template: '/t/echo/{name}', auth: 'none', handle: (req) => ({ status: 200, json: { name: req.params['name'], type: req.contentType, raw: req.rawBody } }) },
];

beforeAll(async () => {
  server = createServer(
    createRequestListener({ routes, controlRoutes: [], tokens, basic: { username: 'u', password: 'p' }, faults: new Faults(), calls: new CallLog(), latencyMs: () => 0 }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address: AddressInfo | string | null = server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  base = `http://127.0.0.1:${address.port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
});

describe('sandbox request flow: bad requests never crash the server or corrupt state', () => {
  it('a handler throwing a non-HttpError gives 500 with an error body; the server keeps serving', async () => {
    for (const path of ['/t/crash', '/t/async-crash']) {
      const r = await fetch(`${base}${path}`);
      expect(r.status).toBe(500);
      const body: unknown = await r.json();
      expect(body).toEqual(expect.objectContaining({ status: 500, error: 'Internal Server Error', path }));
    }
    const ok = await fetch(`${base}/t/counter`, { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body: '{"add":2}' });
    expect(await ok.json()).toEqual({ counter: 2, caller: 'someone' });
  });

  it('invalid bodies leave state untouched', async () => {
    const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
    for (const body of ['{"add":"x"}', '{"add":', '[]', '']) {
      const r = await fetch(`${base}/t/counter`, { method: 'POST', headers, body });
      expect(r.status).toBe(400);
    }
    const ok = await fetch(`${base}/t/counter`, { method: 'POST', headers, body: '{"add":1}' });
    const after: unknown = await ok.json();
    expect(after).toEqual(expect.objectContaining({ counter: 3 }));
  });

  it('decodes path parameters, keeps non-JSON bodies as text with their media type', async () => {
    const r = await fetch(`${base}/t/echo/a%20b`, { method: 'POST', headers: { 'Content-Type': 'text/csv; charset=utf-8' }, body: 'A,B\n1,2' });
    expect(await r.json()).toEqual({ name: 'a b', type: 'text/csv', raw: 'A,B\n1,2' });
    const bad = await fetch(`${base}/t/echo/%E0%A4%A`, { method: 'POST', body: 'x' });
    expect(bad.status).toBe(404);
  });

  it('survives garbage on the socket and answers the next request', async () => {
    await new Promise<void>((resolve) => {
      const socket = connect(Number(new URL(base).port), '127.0.0.1', () => socket.end('THIS IS NOT HTTP\r\n\r\n'));
      socket.on('close', () => resolve());
      socket.on('error', () => resolve());
      socket.resume();
    });
    expect((await fetch(`${base}/t/crash`)).status).toBe(500);
  });
});
