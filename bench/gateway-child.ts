/**
 * Entry of the gateway child process (see gateway-launcher.ts): starts a gateway from the
 * environment, reports its URL (and NODE_ENV) over IPC, answers `cpu-usage` requests with this
 * process's CPU time so far (user + system, µs, every thread: GC and the thread pool included),
 * and stops when told to or when the parent goes away.
 */
import { isObject } from '../src/upstream/parse';
import { launchGateway } from './gateway-start';

async function main(): Promise<void> {
  const gateway = await launchGateway(process.env);
  const stop = (): void => {
    gateway.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('message', (message: unknown) => {
    if (!isObject(message)) return;
    if (message['type'] === 'close') stop();
    if (message['type'] === 'cpu-usage') {
      const { user, system } = process.cpuUsage();
      process.send?.({ type: 'cpu-usage', id: message['id'], micros: user + system });
    }
  });
  process.on('disconnect', stop);
  process.send?.({ type: 'ready', url: gateway.url, nodeEnv: process.env['NODE_ENV'] ?? null });
}

main().catch((err: unknown) => {
  process.stderr.write(`gateway child: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
