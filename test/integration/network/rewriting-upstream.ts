/**
 * A pass-through upstream in front of the sandbox (real sockets) that edits JSON answers of GETs
 * on the way back: an upstream that leaves out a field the contract does not promise on every
 * list, without a switch in the sandbox. HAL hrefs in the answers still name the sandbox, so
 * only the calls the gateway builds from its base URL pass here; the sandbox counts every call.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Edits the parsed body of one GET answer, in place. */
export type Rewrite = (url: URL, body: unknown) => void;

export interface RewritingUpstream {
  baseUrl: string;
  close(): Promise<void>;
}

export async function startRewritingUpstream(target: string, rewrite: Rewrite): Promise<RewritingUpstream> {
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const url = new URL(req.url ?? '/', target);
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && k !== 'host' && k !== 'content-length') headers[k] = v;
        const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
        const answer = await fetch(url, { method: req.method ?? 'GET', headers, ...(body === undefined ? {} : { body }) });
        let text = await answer.text();
        if (req.method === 'GET' && (answer.headers.get('content-type') ?? '').includes('json') && text !== '') {
          const parsed: unknown = JSON.parse(text);
          rewrite(url, parsed);
          text = JSON.stringify(parsed);
        }
        res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/octet-stream' });
        res.end(text);
      })().catch((err: unknown) => {
        res.writeHead(502);
        res.end(String(err));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo; // listening on TCP: the address is an AddressInfo
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve()))),
  };
}
