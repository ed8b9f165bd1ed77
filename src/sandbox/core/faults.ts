/**
 * Fault injection for contract calls: latency (with jitter), error answers at a rate (optionally
 * with `Retry-After`),
 * connection resets and slow bodies, per method and route. Rules are checked in order; the
 * first matching rule applies. A rule with `times` applies to that many matching calls only.
 *
 * `route` matches when it is (a) the route template (`/rest/v1/networks/{networkId}`, trailing
 * slash insignificant), (b) a regular expression over the request path when it starts with `^`,
 * or (c) a glob over the request path or the template: `*` is any text within one segment,
 * `**` any text across segments.
 */
import { HttpError } from './types';

export interface FaultRule {
  method?: string;
  route?: string;
  latencyMs?: number;
  jitterMs?: number;
  /** 0..1: share of matching calls answered with `status`. */
  errorRate?: number;
  /** Status of injected errors (default 500). */
  status?: number;
  /** Seconds for a `Retry-After` header on injected errors (e.g. with status 429 or 503). */
  retryAfterS?: number;
  /** Destroy the socket instead of answering. */
  reset?: boolean;
  /** Send the response body in chunks spread over this many milliseconds. */
  slowBodyMs?: number;
  /** Apply to the next N matching calls only. */
  times?: number;
}

/** What the server does for one call after consulting the rules. */
export interface FaultDecision {
  delayMs: number;
  reset: boolean;
  errorStatus: number | null;
  /** `Retry-After` seconds for the injected error, when the rule sets it. */
  retryAfterS: number | null;
  slowBodyMs: number;
}

interface ActiveRule {
  rule: FaultRule;
  matches: (path: string, template: string) => boolean;
  remaining: number;
}

const NONE: FaultDecision = { delayMs: 0, reset: false, errorStatus: null, retryAfterS: null, slowBodyMs: 0 };

export class Faults {
  private rules: ActiveRule[] = [];

  set(rules: FaultRule[]): void {
    // `times: 0` applies to no call at all.
    this.rules = rules.map((rule) => compile(rule)).filter((r) => r.remaining > 0);
  }

  clear(): void {
    this.rules = [];
  }

  list(): FaultRule[] {
    return this.rules.map((r) => (r.rule.times === undefined ? r.rule : { ...r.rule, times: r.remaining }));
  }

  decide(method: string, path: string, template: string): FaultDecision {
    const index = this.rules.findIndex(
      (r) => (r.rule.method === undefined || r.rule.method.toUpperCase() === method) && r.matches(path, template),
    );
    const active = this.rules[index];
    if (active === undefined) return NONE;
    if (active.rule.times !== undefined) {
      active.remaining -= 1;
      if (active.remaining <= 0) this.rules.splice(index, 1);
    }
    const { rule } = active;
    const jitter = rule.jitterMs ? Math.random() * rule.jitterMs : 0;
    const failing = rule.errorRate !== undefined && Math.random() < rule.errorRate;
    return {
      delayMs: (rule.latencyMs ?? 0) + jitter,
      reset: rule.reset === true,
      errorStatus: failing ? rule.status ?? 500 : null,
      retryAfterS: failing ? rule.retryAfterS ?? null : null,
      slowBodyMs: rule.slowBodyMs ?? 0,
    };
  }
}

function trimSlash(s: string): string {
  return s.length > 1 ? s.replace(/\/+$/, '') : s;
}

function globToRegExp(glob: string): RegExp {
  const escaped = trimSlash(glob)
    .split('**')
    .map((part) =>
      part
        .split('*')
        .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
        .join('[^/]*'),
    )
    .join('.*');
  return new RegExp(`^${escaped}/?$`);
}

/**
 * A rule's `route` as a test over (path, template): the template itself, a regular expression
 * over the path when it starts with `^`, or a glob over the path or template; none: every route.
 */
export function routeMatcher(route: string | undefined): (path: string, template: string) => boolean {
  if (route === undefined) return () => true;
  if (route.startsWith('^')) {
    const re = new RegExp(route);
    return (path) => re.test(path);
  }
  const re = globToRegExp(route);
  const exact = trimSlash(route);
  return (path, template) => trimSlash(template) === exact || re.test(path) || re.test(template);
}

function compile(rule: FaultRule): ActiveRule {
  validate(rule);
  return { rule, matches: routeMatcher(rule.route), remaining: rule.times ?? Infinity };
}

function validate(rule: FaultRule): void {
  const nonNegative = (v: number | undefined, name: string): void => {
    if (v !== undefined && (!Number.isFinite(v) || v < 0)) throw new HttpError(400, `${name} must be a number >= 0`);
  };
  nonNegative(rule.latencyMs, 'latencyMs');
  nonNegative(rule.jitterMs, 'jitterMs');
  nonNegative(rule.slowBodyMs, 'slowBodyMs');
  nonNegative(rule.times, 'times');
  nonNegative(rule.retryAfterS, 'retryAfterS');
  if (rule.errorRate !== undefined && !(rule.errorRate >= 0 && rule.errorRate <= 1)) {
    throw new HttpError(400, 'errorRate must be between 0 and 1');
  }
  if (rule.status !== undefined && !(Number.isInteger(rule.status) && rule.status >= 400 && rule.status <= 599)) {
    throw new HttpError(400, 'status must be an integer from 400 to 599');
  }
  if (rule.route?.startsWith('^')) {
    try {
      new RegExp(rule.route);
    } catch {
      throw new HttpError(400, `route is not a valid regular expression: ${rule.route}`);
    }
  }
}

/** Parses fault rules from a control-path JSON body (an array, or `{ rules: [...] }`, or one rule). */
export function parseFaultRules(body: unknown): FaultRule[] {
  const list = Array.isArray(body) ? body : isRecord(body) && Array.isArray(body['rules']) ? body['rules'] : [body];
  return list.map((item, i) => {
    if (!isRecord(item)) throw new HttpError(400, `rules[${i}]: expected an object`);
    const rule: FaultRule = {};
    const str = (key: 'method' | 'route'): void => {
      const v = item[key];
      if (v === undefined || v === null) return;
      if (typeof v !== 'string') throw new HttpError(400, `rules[${i}]: ${key} must be a string`);
      rule[key] = v;
    };
    const num = (key: 'latencyMs' | 'jitterMs' | 'errorRate' | 'status' | 'retryAfterS' | 'slowBodyMs' | 'times'): void => {
      const v = item[key];
      if (v === undefined || v === null) return;
      if (typeof v !== 'number') throw new HttpError(400, `rules[${i}]: ${key} must be a number`);
      rule[key] = v;
    };
    str('method');
    str('route');
    num('latencyMs');
    num('jitterMs');
    num('errorRate');
    num('status');
    num('retryAfterS');
    num('slowBodyMs');
    num('times');
    const reset = item['reset'];
    if (reset !== undefined && reset !== null) {
      if (typeof reset !== 'boolean') throw new HttpError(400, `rules[${i}]: reset must be a boolean`);
      rule.reset = reset;
    }
    validate(rule);
    return rule;
  });
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
