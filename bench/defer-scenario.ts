/**
 * The defer scenario (`--scenario defer`): a console page — a network with its endpoints and its
 * AppWANs, and the last hours' top talkers from event search — where the search service holds
 * every call `slowMs` (2 s; a sandbox fault rule on its route) and every other call takes the
 * bench's per-call latency. Timed, each over `multipart/mixed` or JSON on real sockets:
 * - `deferred`: the page with the talkers in a `@defer` fragment: time to the first part (the
 *   network, its endpoints and AppWANs) and to the whole;
 * - `plain`: the same page without `@defer` (one JSON body, as late as the slow call);
 * - `fastOnly`: the page without the talkers (the fast part's own time).
 * Goal: the first part at most 1.2× the fast part's own time, whatever the slow call costs.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { isDeepStrictEqual } from 'node:util';
import { meros } from 'meros';
import { isObject } from '../src/core/parse';
import { startSandbox } from '../src/sandbox';
import type { BenchOptions } from './args';
import { benchGatewayEnv, startGatewayProcess } from './gateway-launcher';
import { BATCHED } from './gateway-start';
import { TOP_TALKER_LIMIT, TOP_TALKER_WINDOW_MS } from './search-facts';
import { median, round } from './stats';

export interface DeferTimes {
  /** Median ms to the first part (for a JSON answer: to the whole body). */
  firstMs: number;
  /** Median ms to the last byte. */
  wholeMs: number;
  /** Parts read (1 for a JSON answer), from the last run. */
  parts: number;
}

export interface DeferScenarioResult {
  seed: BenchOptions['seed'];
  /** Per-call latency of every upstream call but the slow one. */
  latencyMs: number;
  /** What the search service holds each call. */
  slowMs: number;
  iterations: number;
  deferred: DeferTimes;
  plain: DeferTimes;
  fastOnly: DeferTimes;
  /** deferred.firstMs ÷ fastOnly.wholeMs (goal ≤ 1.2). */
  firstToFastRatio: number;
  /** The merged parts of the deferred page equal the plain page's answer. */
  mergedEqualsPlain: boolean;
}

const PAGE = `
  network(id: $id) {
    id name status
    endpoints(first: 100) { totalCount nodes { id name } }
    appWans(first: 100) { totalCount nodes { id name } }
  }`;
const TALKERS = `topTalkers(from: $from, to: $to, limit: ${TOP_TALKER_LIMIT}, addressLimit: 10) { sources { sourceId transmitted documents } }`;

export const CONSOLE_PAGE = {
  deferred: `query ConsolePage($id: UUID!, $from: String!, $to: String!) {${PAGE}\n  ... @defer(label: "talkers") { ${TALKERS} }\n}`,
  plain: `query ConsolePage($id: UUID!, $from: String!, $to: String!) {${PAGE}\n  ${TALKERS}\n}`,
  fastOnly: `query ConsolePageFast($id: UUID!) {${PAGE}\n}`,
} as const;

interface Timed {
  firstMs: number;
  wholeMs: number;
  parts: unknown[];
}

/** POSTs one query accepting multipart/mixed; times the first part and the end. */
export async function timeQuery(url: string, token: string, query: string, variables: Record<string, unknown>): Promise<Timed> {
  const started = performance.now();
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'multipart/mixed; deferSpec=20220824, application/json', authorization: `Bearer ${token}` } }, resolve);
    req.on('error', reject);
    req.end(JSON.stringify({ query, variables }));
  });
  const parts = await meros(response);
  const bodies: unknown[] = [];
  let firstMs: number | null = null;
  if (isAsyncGenerator(parts)) {
    for await (const part of parts) {
      firstMs ??= performance.now() - started;
      bodies.push(part.json ? part.body : String(part.body));
    }
  } else {
    const chunks: Buffer[] = [];
    for await (const chunk of parts) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
    bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
  }
  const wholeMs = performance.now() - started;
  return { firstMs: firstMs ?? wholeMs, wholeMs, parts: bodies };
}

function isAsyncGenerator<T>(value: IncomingMessage | AsyncGenerator<T>): value is AsyncGenerator<T> {
  return Symbol.asyncIterator in value && 'next' in value && typeof value.next === 'function';
}

/** The parts of a 2022-format answer merged into one `data` (deferred fragments' data laid in at their path). */
export function mergeParts(parts: readonly unknown[]): unknown {
  const [first, ...rest] = parts;
  if (!isObject(first)) throw new Error('the first part is not an object');
  const data: unknown = structuredClone(first['data']);
  for (const part of rest) {
    if (!isObject(part)) continue;
    const incremental = part['incremental'];
    for (const chunk of Array.isArray(incremental) ? incremental : []) {
      if (!isObject(chunk) || !Array.isArray(chunk['path'])) continue;
      let target: unknown = data;
      for (const key of chunk['path']) target = isObject(target) ? target[String(key)] : Array.isArray(target) ? target[Number(key)] : undefined;
      if (isObject(target) && isObject(chunk['data'])) Object.assign(target, chunk['data']);
      if (Array.isArray(target) && Array.isArray(chunk['items'])) target.push(...chunk['items']);
    }
  }
  return data;
}

function dataOf(timed: Timed): unknown {
  const [only] = timed.parts;
  if (timed.parts.length !== 1 || !isObject(only)) throw new Error('expected one JSON body');
  if (only['errors'] !== undefined) throw new Error(`errors: ${JSON.stringify(only['errors']).slice(0, 300)}`);
  return only['data'];
}

function times(runs: readonly Timed[]): DeferTimes {
  return { firstMs: round(median(runs.map((r) => r.firstMs))), wholeMs: round(median(runs.map((r) => r.wholeMs))), parts: runs.at(-1)?.parts.length ?? 0 };
}

export async function runDeferScenario(
  options: Pick<BenchOptions, 'seed' | 'latencyMs' | 'gateway' | 'iterations'>,
  log: (line: string) => void,
  slowMs = 2000,
): Promise<DeferScenarioResult> {
  // Each deferred or plain run waits `slowMs`: a handful of runs gives a steady median.
  const iterations = Math.max(3, Math.min(10, options.iterations));
  const sandbox = await startSandbox({ port: 0, host: '127.0.0.1', seed: options.seed, latencyMs: 0 });
  try {
    // The search is slow, not failing: an attempt in flight past UPSTREAM_SLOW_CALL_MS (2 s by default) would count against its breaker.
    const gateway = await startGatewayProcess(options.gateway, { ...benchGatewayEnv(sandbox), UPSTREAM_SLOW_CALL_MS: String(slowMs * 3) }, BATCHED);
    try {
      const network = sandbox.restFacts().networks[0];
      if (!network) throw new Error('the seed has no network');
      const to = new Date().toISOString();
      const variables = { id: network.id, from: new Date(Date.parse(to) - TOP_TALKER_WINDOW_MS).toISOString(), to };
      const token = sandbox.tokens.admin;
      sandbox.control.setFaults([
        { route: '/search/**', latencyMs: slowMs },
        { route: '/**', latencyMs: options.latencyMs },
      ]);
      log(`defer: console page on network ${network.id}, search held ${slowMs} ms, other calls ${options.latencyMs} ms, ${iterations} runs each`);
      const fastOnly: Timed[] = [];
      const plain: Timed[] = [];
      const deferred: Timed[] = [];
      const forms = [
        { query: CONSOLE_PAGE.fastOnly, vars: { id: network.id }, runs: fastOnly },
        { query: CONSOLE_PAGE.plain, vars: variables, runs: plain },
        { query: CONSOLE_PAGE.deferred, vars: variables, runs: deferred },
      ];
      // Warm-up (caller verified, documents prepared), then the three forms in turns: the shared machine's
      // load moves within minutes, and each ratio compares runs made side by side.
      for (const form of forms) await timeQuery(gateway.url, token, form.query, form.vars);
      for (let i = 0; i < iterations; i++) for (const form of forms) form.runs.push(await timeQuery(gateway.url, token, form.query, form.vars));
      const lastPlain = plain.at(-1);
      const lastDeferred = deferred.at(-1);
      if (!lastPlain || !lastDeferred) throw new Error('no run');
      // Key order aside (the incremental executor may write an object's keys in another order than the selection's).
      const mergedEqualsPlain = isDeepStrictEqual(mergeParts(lastDeferred.parts), dataOf(lastPlain));
      const result: DeferScenarioResult = {
        seed: options.seed,
        latencyMs: options.latencyMs,
        slowMs,
        iterations,
        deferred: times(deferred),
        plain: times(plain),
        fastOnly: times(fastOnly),
        firstToFastRatio: 0,
        mergedEqualsPlain,
      };
      result.firstToFastRatio = round(result.deferred.firstMs / Math.max(0.001, result.fastOnly.wholeMs), 3);
      return result;
    } finally {
      await gateway.close();
    }
  } finally {
    await sandbox.close();
  }
}

/** The scenario's lines for the console. */
export function formatDefer(r: DeferScenarioResult): string {
  return [
    `defer scenario (${r.seed}, search held ${r.slowMs} ms, other calls ${r.latencyMs} ms, median of ${r.iterations}):`,
    `  @defer     first part ${r.deferred.firstMs} ms, whole ${r.deferred.wholeMs} ms (${r.deferred.parts} parts)`,
    `  no @defer  whole ${r.plain.wholeMs} ms`,
    `  fast part  whole ${r.fastOnly.wholeMs} ms`,
    `  first part / fast part = ${r.firstToFastRatio} (goal ≤ 1.2); merged parts equal the plain answer: ${r.mergedEqualsPlain}`,
  ].join('\n');
}
