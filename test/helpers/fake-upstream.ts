/**
 * A tiny scripted upstream on a real socket (127.0.0.1, port 0) for unit tests of the HTTP layer:
 * no mocks of undici, the layer talks real HTTP.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface FakeUpstream {
  url: string;
  requests: SeenRequest[];
  /** Highest number of requests in flight at once. */
  maxInFlight: number;
  close(): Promise<void>;
}

export type FakeHandler = (req: SeenRequest, res: ServerResponse, index: number) => void | Promise<void>;

export async function startFakeUpstream(handler: FakeHandler): Promise<FakeUpstream> {
  let inFlight = 0;
  const state: FakeUpstream = { url: '', requests: [], maxInFlight: 0, close: async () => undefined };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const seen: SeenRequest = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      state.requests.push(seen);
      inFlight += 1;
      state.maxInFlight = Math.max(state.maxInFlight, inFlight);
      res.on('close', () => {
        inFlight -= 1;
      });
      Promise.resolve(handler(seen, res, state.requests.length - 1)).catch((error: unknown) => {
        res.statusCode = 599;
        res.end(String(error));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  state.url = `http://127.0.0.1:${port}`;
  state.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}

/** Send a JSON answer. */
export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}
