/**
 * The sandbox's internal contract between its core (server, router, control path) and its
 * areas (auth/v1, rest/v1 + identity/v1, core/v2, search). Each area exports a factory that
 * returns its routes and knows how to (re)seed its own state. Nothing here imports the gateway.
 */
import type { IncomingHttpHeaders } from 'node:http';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** Who is calling, from a valid bearer token (`sub` claim). */
export interface Caller {
  identityId: string;
  /** All claims of the token, for masquerade checks and tests. */
  claims: Record<string, unknown>;
}

export interface SandboxRequest {
  method: Method;
  /** Path without the query string, e.g. `/rest/v1/networks/abc`. */
  path: string;
  /** Values of `{placeholders}` in the route template, URI-decoded. */
  params: Record<string, string>;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** The body as text ('' when none). */
  rawBody: string;
  /** The body parsed as JSON when the content type is JSON (undefined otherwise). */
  json: unknown;
  /** Lowercased media type of the request body, without parameters ('' when none). */
  contentType: string;
  /** Set for routes with auth 'bearer' (the router answers 401 before the handler otherwise). */
  caller: Caller | null;
  /** Absolute origin of this sandbox (`http://127.0.0.1:4010`), for absolute HAL hrefs. */
  origin: string;
}

export interface SandboxResponse {
  status: number;
  /** JSON body; omitted for empty bodies. */
  json?: unknown;
  /** Non-JSON body (YAML blueprints, registration keys). */
  text?: string;
  contentType?: string;
  headers?: Record<string, string>;
}

export interface SandboxRoute {
  method: Method;
  /** Path template with `{name}` placeholders, e.g. `/rest/v1/networks/{networkId}`. Trailing slashes are insignificant. */
  template: string;
  /** 'bearer': a valid sandbox JWT is required (401 otherwise); 'basic': search credentials; 'none'. */
  auth: 'bearer' | 'basic' | 'none';
  handle(req: SandboxRequest): SandboxResponse | Promise<SandboxResponse>;
}

/**
 * Thrown by handlers for any non-2xx answer; the server renders it with the error body shape
 * the area uses (Spring style `{ timestamp, status, error, message, path }` by default).
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export type SeedSize = 'tiny' | 'demo' | 'large';

/**
 * Permission checks, implemented by the auth area over its grants (super users, identity
 * resource actions, public grants). rest/v1 and core/v2 use it too: reads need `read` on the
 * route's resource type code in the `network` domain; changes need `write` there.
 */
export interface Authz {
  can(caller: Caller, domainCode: string, resourceTypeCode: string, actionCode: string): boolean;
  /** Throws HttpError(403) when `can` is false. */
  require(caller: Caller, domainCode: string, resourceTypeCode: string, actionCode: string): void;
}

/** Time source for asynchronous progress; tests make it fast (`stepMs`). */
export interface Clock {
  now(): number;
  /** Milliseconds one asynchronous step takes (status 100 → 200 → 300, workflow steps). */
  readonly stepMs: number;
}

/** Kinds of rest/v1 entities whose asynchronous changes failure rules can name. */
export type AsyncChangeKind = 'network' | 'endpoint' | 'service' | 'appWan';

/** An asynchronous change as failure rules see it, when it starts. */
export interface AsyncChange {
  kind: AsyncChangeKind;
  /** create (single, CSV, blueprint), update (a 202 redefine, an AppWAN member change) or delete. */
  op: 'create' | 'update' | 'delete';
  /** The definition of its process; null for a change without a business key (a single create). */
  processDefinition: string | null;
}

/** The control's failure rules for asynchronous progress (`/__sandbox/async-failures`). */
export interface AsyncFailurePlan {
  /**
   * The 1-based step at which a change that starts now fails, using up one application of the
   * first matching rule; null when it is to succeed.
   */
  failingStep(change: AsyncChange): number | null;
}

/** What every area gets from the core. */
export interface AreaContext {
  clock: Clock;
  authz: Authz;
  /** Areas with asynchronous changes ask it when a change starts (rest/v1 does; core/v2 does not). */
  asyncFailures: AsyncFailurePlan;
  /** Deterministic random numbers for seeding (same seed → same data). */
  random(): number;
  /** A fresh UUID (v4 form), deterministic within a seeded run. */
  uuid(): string;
}

export interface SandboxArea {
  name: string;
  routes: SandboxRoute[];
  /** Drop all state and load the seed data of the given size. */
  seed(size: SeedSize): void;
}
