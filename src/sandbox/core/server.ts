/**
 * The sandbox's HTTP request flow, in one straight line:
 * control path? → route match (404/405) → body read → call log → faults and latency → body
 * parse → auth → handler → response. Any throw that is not an HttpError becomes a 500; the
 * process never crashes.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { BasicChallengeError, bearerCaller, checkBasic, type BasicCredentials } from './auth-check';
import { parseBody, readRaw } from './body';
import type { Caching } from './caching';
import type { CallLog } from './call-log';
import { errorBody } from './error-body';
import type { Faults } from './faults';
import { Router } from './router';
import type { TokenService } from './tokens';
import { HttpError, type Method, type SandboxRequest, type SandboxResponse, type SandboxRoute } from './types';

export const CONTROL_PREFIX = '/__sandbox/';

export interface RequestFlowOptions {
  routes: SandboxRoute[];
  /** The control path's routes (templates under CONTROL_PREFIX, auth 'none'); not logged, no faults. */
  controlRoutes: SandboxRoute[];
  tokens: TokenService;
  basic: BasicCredentials;
  faults: Faults;
  calls: CallLog;
  /** The optional caching mode: ETag, Last-Modified, Cache-Control and 304 on contract GETs. */
  caching?: Caching;
  /** Fixed latency added to every contract call (the benchmark's per-call latency). */
  latencyMs(): number;
}

type RawBody = { ok: true; text: string } | { ok: false; error: unknown };

const METHODS: readonly Method[] = ['GET', 'POST', 'PUT', 'DELETE'];

function isMethod(value: string): value is Method {
  return (METHODS as readonly string[]).includes(value);
}

export function createRequestListener(options: RequestFlowOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const router = new Router(options.routes);
  const controlRouter = new Router(options.controlRoutes);
  return (req, res) => {
    handle(req, res, options, router, controlRouter).catch((err: unknown) => {
      // Last line of defence: answer if still possible, never rethrow.
      if (!res.headersSent && !res.destroyed) {
        sendJson(res, 500, errorBody(500, `internal error: ${describe(err)}`, req.url ?? ''));
      } else {
        res.destroy();
      }
    });
  };
}

async function handle(
  req: IncomingMessage,
  res: ServerResponse,
  options: RequestFlowOptions,
  router: Router,
  controlRouter: Router,
): Promise<void> {
  const host = req.headers.host ?? `127.0.0.1:${req.socket.localPort ?? 0}`;
  const origin = `http://${host}`;
  let url: URL;
  try {
    url = new URL(req.url ?? '/', origin);
  } catch {
    sendJson(res, 400, errorBody(400, 'malformed request URL', req.url ?? ''));
    return;
  }
  const path = url.pathname;
  const method = (req.method ?? 'GET').toUpperCase();
  const isControl = path.startsWith(CONTROL_PREFIX) || path === CONTROL_PREFIX.slice(0, -1);
  const match = (isControl ? controlRouter : router).match(method, path);
  if (match.kind !== 'found' || !isMethod(method)) {
    req.resume();
    if (match.kind === 'wrong-method') {
      sendJson(res, 405, errorBody(405, `method ${method} not allowed on ${path}`, path), { Allow: match.allowed.join(', ') });
    } else {
      sendJson(res, 404, errorBody(404, `no route for ${method} ${path}`, path));
    }
    return;
  }
  const { route, params } = match;
  // Read before logging and faults, so the call log holds what was sent even when an injected
  // fault answers instead of the handler. A failed read (413, aborted upload) is answered below.
  const raw = await readRaw(req).then(
    (text): RawBody => ({ ok: true, text }),
    (error: unknown): RawBody => ({ ok: false, error }),
  );

  let slowBodyMs = 0;
  let seq: number | null = null;
  if (!isControl) {
    seq = options.calls.record({
      method,
      route: route.template,
      path,
      query: url.searchParams,
      contentType: req.headers['content-type'] ?? null,
      rawBody: raw.ok ? raw.text : null,
    });
    const fault = options.faults.decide(method, path, route.template);
    const delay = options.latencyMs() + fault.delayMs;
    if (delay > 0) await sleep(delay);
    if (fault.reset) {
      req.socket.destroy();
      return;
    }
    if (fault.errorStatus !== null) {
      const headers: Record<string, string> = fault.retryAfterS === null ? {} : { 'Retry-After': String(fault.retryAfterS) };
      sendJson(res, fault.errorStatus, errorBody(fault.errorStatus, 'injected fault', path), headers);
      return;
    }
    slowBodyMs = fault.slowBodyMs;
  }

  let response: SandboxResponse;
  try {
    if (!raw.ok) throw raw.error;
    const body = parseBody(raw.text, req.headers['content-type']);
    const sandboxRequest: SandboxRequest = {
      method,
      path,
      params,
      query: url.searchParams,
      headers: req.headers,
      ...body,
      caller: null,
      origin,
    };
    if (route.auth === 'bearer') sandboxRequest.caller = bearerCaller(req.headers, options.tokens);
    if (route.auth === 'basic') checkBasic(req.headers, options.basic);
    response = await route.handle(sandboxRequest);
  } catch (err) {
    response = errorResponse(err, path);
  }
  if (!isControl && method === 'GET' && options.caching) response = options.caching.apply(`${path}${url.search}`, route.template, path, req.headers, response);
  await send(res, response, slowBodyMs);
  if (seq !== null) options.calls.answered(seq);
}

function errorResponse(err: unknown, path: string): SandboxResponse {
  if (err instanceof HttpError) {
    const headers: Record<string, string> =
      err instanceof BasicChallengeError ? { 'WWW-Authenticate': 'Basic realm="sandbox search"' } : {};
    return { status: err.status, json: errorBody(err.status, err.message, path), headers };
  }
  return { status: 500, json: errorBody(500, `internal error: ${describe(err)}`, path) };
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function sendJson(res: ServerResponse, status: number, json: unknown, headers: Record<string, string> = {}): void {
  const body = JSON.stringify(json);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), ...headers });
  res.end(body);
}

async function send(res: ServerResponse, response: SandboxResponse, slowBodyMs: number): Promise<void> {
  let body: string | null = null;
  let contentType = response.contentType;
  if (response.json !== undefined) {
    body = JSON.stringify(response.json);
    contentType ??= 'application/json';
  } else if (response.text !== undefined) {
    body = response.text;
    contentType ??= 'text/plain; charset=utf-8';
  }
  const headers: Record<string, string | number> = { ...(response.headers ?? {}) };
  if (contentType !== undefined) headers['Content-Type'] = contentType;
  const bytes = body === null ? Buffer.alloc(0) : Buffer.from(body, 'utf8');
  headers['Content-Length'] = bytes.length;
  res.writeHead(response.status, headers);
  if (slowBodyMs <= 0 || bytes.length === 0) {
    res.end(bytes);
    return;
  }
  // Slow body: the headers go out at once, the body trickles out in chunks over slowBodyMs.
  const chunks = Math.min(10, bytes.length);
  const chunkSize = Math.ceil(bytes.length / chunks);
  for (let i = 0; i < chunks; i++) {
    if (res.destroyed) return;
    res.write(bytes.subarray(i * chunkSize, (i + 1) * chunkSize));
    await sleep(slowBodyMs / chunks);
  }
  res.end();
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
