/**
 * The p50 floor's route of a floor server (POST REPLAY_PATH): a query's upstream calls replayed in
 * the gateway's sequential round trips ("waves", call-waves.ts), then the gateway's answer. Per
 * request: read and JSON.parse the request body (as the raw floor does), then for each wave in
 * order GET all its targets (64 in flight, graph-floor.ts's receiveAll) and parse each body as the gateway does,
 * then answer 200 with JSON.stringify of the answer. That is what any Node server on node:http +
 * undici must do for the query, GraphQL left out; the bench times it from its load client at the
 * latency phase's per-call latency (floors.ts).
 */
import { isObject } from '../src/core/parse';
import { readText, type FloorUpstream, type Handler } from './floor-servers';
import { isStringList, receiveAll } from './graph-floor';

/** Where a floor server serves the replay. */
export const REPLAY_PATH = '/replay';

/** What the bench sets before timing a query's replay (over the floor child's IPC as `replay-script`). */
export interface ReplayScript {
  /** Request targets (path and query) of each wave's calls, wave 1 first. */
  waves: string[][];
  /** The Authorization header of the replayed calls. */
  authorization: string;
  /** The gateway's answer, as JSON text. */
  answer: string;
}

export interface WaveReplay {
  /** Replaces the script; the answer is parsed here, once, so each request pays only its stringify. */
  set(script: ReplayScript): void;
  handle: Handler;
}

export function readReplayScript(value: unknown): ReplayScript {
  if (!isObject(value)) throw new Error('replay-script: expected an object');
  const { waves, authorization, answer } = value;
  if (!Array.isArray(waves) || !waves.every(isStringList)) throw new Error('replay-script: waves must be lists of request targets (strings)');
  const empty = waves.findIndex((wave) => wave.length === 0);
  if (empty >= 0) throw new Error(`replay-script: wave ${empty + 1} has no calls`);
  if (typeof authorization !== 'string' || typeof answer !== 'string') throw new Error('replay-script: authorization and answer must be strings');
  return { waves, authorization, answer };
}

/** The replay of `upstream`; answers 500 until a script is set. */
export function createWaveReplay(upstream: FloorUpstream): WaveReplay {
  let script: { waves: string[][]; authorization: string; answer: unknown } | null = null;
  return {
    set({ waves, authorization, answer }) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(answer);
      } catch (err) {
        throw new Error(`replay-script: the answer is not JSON (${err instanceof Error ? err.message : String(err)})`);
      }
      script = { waves, authorization, answer: parsed };
    },
    async handle(req, res) {
      const current = script;
      if (current === null) throw new Error('replay: no script set');
      JSON.parse(await readText(req));
      for (const wave of current.waves) await receiveAll(upstream, wave, current.authorization);
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify(current.answer));
    },
  };
}
