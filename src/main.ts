/**
 * `npm start`: read the configuration, start the embedded sandbox when no upstream is configured
 * (which the configuration allows on a loopback HOST, or with SANDBOX=on), serve the gateway, and
 * drain on SIGTERM/SIGINT.
 */
import { ConfigError, isLoopback, loadConfig, type Config } from './config';
import { startSandbox, type RunningSandbox } from './sandbox';
import { startGateway, type RunningGateway } from './server';

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`config error: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }

  let sandbox: RunningSandbox | null = null;
  if (config.upstream.baseUrl === null) {
    sandbox = await startSandbox({ port: 0, seed: config.upstream.sandboxSeed });
  }
  let gateway: RunningGateway;
  try {
    gateway = await startGateway(config, { ...(sandbox ? { sandbox } : {}), processMetrics: true });
  } catch (error) {
    await sandbox?.close();
    throw error;
  }

  const lines = [`netgraph listening: ${gateway.url}`, `  GraphQL IDE: open ${gateway.url} in a browser`, `  network map: ${new URL('/map', gateway.url).href}`, `  subscriptions: ${gateway.wsUrl} (WebSocket), ${gateway.streamUrl} (Server-Sent Events)`, `  MCP (AI assistants): ${new URL('/mcp', gateway.url).href} (Streamable HTTP)`];
  if (sandbox) {
    lines.push(
      `  upstream: embedded sandbox (seed ${config.upstream.sandboxSeed}) at ${sandbox.baseUrl}: demo data, not a platform (set UPSTREAM_BASE_URL to serve one)`,
      ...(isLoopback(config.server.host) ? [] : [`  SANDBOX=on on ${config.server.host}: anyone who reaches this address gets the demo admin token`]),
      '  demo tokens (send as `Authorization: Bearer <token>`; the IDE is prefilled with the admin token):',
      `admin token: ${sandbox.tokens.admin}`,
      `reader token: ${sandbox.tokens.reader}`,
    );
  } else {
    lines.push(`  upstream: ${config.upstream.baseUrl}`);
  }
  process.stdout.write(`${lines.join('\n')}\n`);

  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`${signal}: draining\n`);
    void (async () => {
      await gateway.close();
      await sandbox?.close();
      process.exit(0);
    })();
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`netgraph failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
