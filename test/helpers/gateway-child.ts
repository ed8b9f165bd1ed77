/**
 * A gateway in a process of its own, configured from its environment exactly as `npm start` is
 * (gateway-process.ts forks a bundle of this file). Over IPC it reports ready with its URLs, says
 * which OpenTelemetry packages are loaded (`otel-packages?`), and closes on `close` (its spans are
 * exported before it exits).
 */
import { loadConfig } from '../../src/config';
import { startGateway } from '../../src/server';

/** The @opentelemetry packages in the module cache, by name (`api`, `sdk-trace-node`, …). */
function otelPackages(): string[] {
  const names = Object.keys(require.cache).flatMap((path) => /[\\/]node_modules[\\/]@opentelemetry[\\/]([^\\/]+)/.exec(path)?.[1] ?? []);
  return [...new Set(names)].sort();
}

async function main(): Promise<void> {
  const gateway = await startGateway(loadConfig(process.env), { log: null });
  const close = (): void => {
    gateway.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('message', (message: unknown) => {
    if (message === 'close') close();
    if (message === 'otel-packages?') process.send?.({ type: 'otel-packages', value: otelPackages() });
  });
  process.on('disconnect', close);
  process.send?.({ type: 'ready', url: gateway.url, wsUrl: gateway.wsUrl, streamUrl: gateway.streamUrl });
}

main().catch((error: unknown) => {
  process.stderr.write(`gateway child: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
