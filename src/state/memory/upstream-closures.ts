/** The closures board of one process: nothing to share, each opening stays with its own breaker and credential windows. */
import type { ClosureBoard } from '../../upstream/health';

export class MemoryClosureBoard implements ClosureBoard {
  readonly credentialSecret = null;
  announce(): void {}
  listen(): void {}
  announceCredential(): void {}
  listenCredentials(): void {}
}
