/**
 * The one place the benchmark touches the gateway's API: a gateway from environment variables,
 * validated by the gateway's own loadConfig, exactly as `npm start` would configure it, and the
 * loader options the benchmark compares (batching off is not a setting: it exists to measure).
 */
import { loadConfig } from '../src/config';
import { startGateway, type RunningGateway } from '../src/server';
import type { LoaderOptions } from '../src/upstream/loader-options';

export type { LoaderOptions };

export const BATCHED: LoaderOptions = { batching: true };
export const UNBATCHED: LoaderOptions = { batching: false };

/** How a gateway child is told its loader options: a command-line argument, never the environment. */
const UNBATCHED_ARG = '--unbatched';

export function loaderOptionArgs(options: LoaderOptions): string[] {
  return options.batching ? [] : [UNBATCHED_ARG];
}

export function loaderOptionsFromArgs(args: readonly string[]): LoaderOptions {
  return args.includes(UNBATCHED_ARG) ? UNBATCHED : BATCHED;
}

export function launchGateway(env: NodeJS.ProcessEnv, loaderOptions: LoaderOptions = BATCHED): Promise<RunningGateway> {
  // No request log (a silent logger, nothing formatted): the figures are the gateway's work, not its log's.
  return startGateway(loadConfig(env), { log: null, loaderOptions });
}
