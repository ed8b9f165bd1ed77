/**
 * The one contract every door keeps: where it mounts on the gateway's one HTTP server (a path it
 * answers and/or the upgrades it takes there), how it stops, and its stats. The server holds one
 * list of doors (src/server/compose-doors.ts) and walks it to route requests and upgrades, to stop
 * the doors and to report their stats; nothing else in it knows one door from another.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { GraphQLError, GraphQLFormattedError } from 'graphql';
import type { Door as DoorName } from '../core/doors';
import type { Answer, Caller, Pipeline } from '../pipeline';

/** Answers one request for the door's path. */
export type RequestHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;
/** Takes one HTTP upgrade for the door's path: the socket is the door's from then on. */
export type UpgradeHandler = (req: IncomingMessage, socket: Duplex, head: Buffer) => void;

/** Where a door is reached: one exact path (no prefix, no query string), by request, by upgrade or both. */
export interface DoorMount {
  readonly path: string;
  readonly request?: RequestHandler;
  readonly upgrade?: UpgradeHandler;
}

/** A door's counters (tests, diagnostics): numbers only, never a caller's data. */
export type DoorStats = Readonly<Record<string, number>>;

export interface GatewayDoor<Stats extends DoorStats = DoorStats> {
  /** Its name in logs, metrics and traces (src/core/doors.ts). */
  readonly name: DoorName;
  readonly mount: DoorMount;
  /**
   * Stops taking new work and ends what never ends by itself (open sockets, event streams,
   * reservations). Called once the server stops listening, before the requests in flight drain.
   */
  stop(): Promise<void> | void;
  /** Frees what answering needed (e.g. Apollo Server), once the requests in flight have drained. */
  release?(): Promise<void> | void;
  stats(): Stats;
}

/** Logs and counts one refusal at a door's edge; `status`: what its wire answered, when it has one. */
export type EdgeNote = (errors: readonly GraphQLFormattedError[], caller: Caller, status?: number) => void;

export interface EdgeNotes {
  note: EdgeNote;
  /** The same for errors not formatted yet: the pipeline formats them and gives the answer to send. */
  refuse(errors: readonly GraphQLError[], caller: Caller, status: number): Answer;
  /** How many were noted (the door's `refused` stat). */
  refused(): number;
}

/** A door's edge refusals through the pipeline's `note` and `refuse` (logged, counted, traced like any answer). */
export function edgeNotes(pipeline: Pick<Pipeline, 'note' | 'refuse'>, door: DoorName): EdgeNotes {
  let refused = 0;
  return {
    note(errors, caller, status) {
      refused += 1;
      pipeline.note(errors, caller, { door, ...(status !== undefined ? { statusOf: () => status } : {}) });
    },
    refuse(errors, caller, status) {
      refused += 1;
      return pipeline.refuse(errors, caller, { door, statusOf: () => status });
    },
    refused: () => refused,
  };
}
