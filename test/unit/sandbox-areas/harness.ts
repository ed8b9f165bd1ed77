/**
 * Drives sandbox areas without a server: A's Router picks the route, a hand-built
 * SandboxRequest goes to its handler, and an HttpError becomes its status and message.
 */
import { NO_ASYNC_FAILURES } from '../../../src/sandbox/core/async-failures';
import { ADMIN_IDENTITY_ID, NOBODY_IDENTITY_ID, READER_IDENTITY_ID } from '../../../src/sandbox/core/identities';
import { createRandom } from '../../../src/sandbox/core/random';
import { Router } from '../../../src/sandbox/core/router';
import { HttpError, type AreaContext, type Authz, type Caller, type Method, type SandboxRoute } from '../../../src/sandbox/core/types';

export const admin: Caller = { identityId: ADMIN_IDENTITY_ID, claims: { sub: ADMIN_IDENTITY_ID } };
export const reader: Caller = { identityId: READER_IDENTITY_ID, claims: { sub: READER_IDENTITY_ID } };
export const nobody: Caller = { identityId: NOBODY_IDENTITY_ID, claims: { sub: NOBODY_IDENTITY_ID } };

export interface TestClock {
  now(): number;
  readonly stepMs: number;
  advance(ms: number): void;
}

export function testClock(stepMs = 1000, start = Date.parse('2026-11-21T12:00:00.000Z')): TestClock {
  let t = start;
  return { now: () => t, stepMs, advance: (ms) => (t += ms) };
}

/** A context whose authz is supplied later (the auth area is built from the context). */
export function testContext(clock: TestClock = testClock(), seed = 42): AreaContext & { setAuthz(a: Authz): void } {
  const random = createRandom(seed);
  let authz: Authz | null = null;
  const delegate: Authz = {
    can: (...args) => (authz ? authz.can(...args) : true),
    require: (...args) => authz?.require(...args),
  };
  return { clock, authz: delegate, asyncFailures: NO_ASYNC_FAILURES, random: random.next, uuid: random.uuid, setAuthz: (a) => (authz = a) };
}

export interface Answer {
  status: number;
  json: unknown;
  message: string;
}

export async function call(routes: SandboxRoute[], caller: Caller | null, method: Method, target: string, body?: unknown): Promise<Answer> {
  const url = new URL(target, 'http://sandbox.test');
  const match = new Router(routes).match(method, url.pathname);
  if (match.kind !== 'found') return { status: match.kind === 'wrong-method' ? 405 : 404, json: undefined, message: 'no route' };
  try {
    const res = await match.route.handle({
      method,
      path: url.pathname,
      params: match.params,
      query: url.searchParams,
      headers: {},
      rawBody: body === undefined ? '' : JSON.stringify(body),
      json: body,
      contentType: body === undefined ? '' : 'application/json',
      caller,
      origin: 'http://sandbox.test',
    });
    return { status: res.status, json: res.json, message: '' };
  } catch (err) {
    if (err instanceof HttpError) return { status: err.status, json: undefined, message: err.message };
    throw err;
  }
}

/** Narrows a JSON value for assertions (tests fail loudly on the wrong shape). */
export function obj(value: unknown): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`expected an object, got ${JSON.stringify(value)}`);
  return value as Record<string, unknown>;
}

export function arr(value: unknown): Record<string, unknown>[] {
  if (!Array.isArray(value)) throw new Error(`expected an array, got ${JSON.stringify(value)}`);
  return value.map(obj);
}
