/**
 * Entry of the gateway child process (see gateway-launcher.ts): starts a gateway from the
 * environment, reports its URL over IPC, and stops when told to or when the parent goes away.
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
    if (isObject(message) && message['type'] === 'close') stop();
  });
  process.on('disconnect', stop);
  process.send?.({ type: 'ready', url: gateway.url });
}

main().catch((err: unknown) => {
  process.stderr.write(`gateway child: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
