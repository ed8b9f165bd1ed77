/**
 * The one place the benchmark touches the gateway's API: a gateway from environment variables,
 * validated by the gateway's own loadConfig, exactly as `npm start` would configure it.
 */
import { loadConfig } from '../src/config';
import { startGateway, type RunningGateway } from '../src/server';

export function launchGateway(env: NodeJS.ProcessEnv): Promise<RunningGateway> {
  // No request log: one line per request would cost the throughput phase more than it shows.
  return startGateway(loadConfig(env), { log: () => undefined });
}
