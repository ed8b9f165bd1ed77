/** The closures board of one process: nothing to share, each opening stays with its own breaker. */
import type { ClosureBoard } from '../../upstream/health';

export class MemoryClosureBoard implements ClosureBoard {
  announce(): void {}
  listen(): void {}
}
