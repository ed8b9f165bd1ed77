/**
 * Entry of the gateway child process (see gateway-launcher.ts): a gateway from the environment
 * and its loader options from the command line, served over IPC by child-ipc.ts (ready with its
 * URL, CPU clock, close).
 */
import { serveChild } from './child-ipc';
import { launchGateway, loaderOptionsFromArgs } from './gateway-start';

serveChild('gateway child', () => launchGateway(process.env, loaderOptionsFromArgs(process.argv.slice(2))));
