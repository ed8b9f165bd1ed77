/**
 * The one place the benchmark touches the gateway's API: a gateway from environment variables,
 * validated by the gateway's own loadConfig, exactly as `npm start` would configure it.
 */
import { loadConfig } from '../src/config';
import { startGateway, type RunningGateway } from '../src/server';

export function launchGateway(env: NodeJS.ProcessEnv): Promise<RunningGateway> {
  // No request log (a silent logger, nothing formatted): the figures are the gateway's work, not its log's.
  return startGateway(loadConfig(env), { log: null });
}
