/**
 * Entry of the gateway child process (see gateway-launcher.ts): a gateway from the environment
 * and its loader options from the command line, served over IPC by child-ipc.ts (ready with its
 * URL, CPU clock, close), and its WebSocket door's stats (`ws-stats`: open sockets, bytes held
 * unsent, sockets closed for reading slowly).
 */
import type { RunningGateway } from '../src/server';
import { serveChild } from './child-ipc';
import { launchGateway, loaderOptionsFromArgs } from './gateway-start';

let gateway: RunningGateway | null = null;
serveChild(
  'gateway child',
  async () => (gateway = await launchGateway(process.env, loaderOptionsFromArgs(process.argv.slice(2)))),
  { 'ws-stats': () => Promise.resolve(gateway?.wsStats() ?? null) },
);
