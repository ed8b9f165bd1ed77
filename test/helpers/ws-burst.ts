/**
 * A WebSocket client for bursts: after `connection_init` is acknowledged, many protocol messages
 * are written to the socket in ONE write, so the server reads them in one chunk, in one tick.
 */
import { Socket } from 'node:net';
import WebSocket from 'ws';

/** One masked text frame (a client must mask; a zero mask leaves the payload as it is). */
function textFrame(text: string): Buffer {
  const payload = Buffer.from(text);
  const length = payload.length;
  const head = length < 126 ? Buffer.from([0x81, 0x80 | length]) : length < 65536 ? Buffer.from([0x81, 0x80 | 126, length >> 8, length & 0xff]) : null;
  if (head === null) throw new Error('ws-burst: messages up to 64 KiB');
  return Buffer.concat([head, Buffer.alloc(4), payload]);
}

export interface BurstSocket {
  /** Every message the server sent, parsed. */
  messages: Array<{ id?: string; type: string; payload?: unknown }>;
  /** Writes all `messages` (JSON) in one socket write. */
  burst(messages: readonly unknown[]): void;
  close(): void;
}

/** Opens a graphql-transport-ws socket, sends `connection_init` with `authorization`, and waits for the ack. */
export async function openBurstSocket(url: string, authorization: string | null): Promise<BurstSocket> {
  const ws = new WebSocket(url, 'graphql-transport-ws');
  const messages: BurstSocket['messages'] = [];
  const acked = new Promise<void>((resolve, reject) => {
    ws.on('message', (data: Buffer) => {
      const message = JSON.parse(data.toString()) as BurstSocket['messages'][number];
      if (message.type === 'connection_ack') resolve();
      else messages.push(message);
    });
    ws.once('close', (code) => reject(new Error(`closed ${code} before connection_ack`)));
    ws.once('error', reject);
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  ws.send(JSON.stringify({ type: 'connection_init', ...(authorization ? { payload: { authorization } } : {}) }));
  await acked;
  const socket: unknown = Reflect.get(ws, '_socket');
  if (!(socket instanceof Socket)) throw new Error('ws-burst: no underlying socket');
  return {
    messages,
    burst: (list) => void socket.write(Buffer.concat(list.map((m) => textFrame(JSON.stringify(m))))),
    close: () => ws.terminate(),
  };
}
