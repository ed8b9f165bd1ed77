/**
 * Matches request paths against route templates (`/rest/v1/networks/{networkId}`). Trailing
 * slashes are insignificant on both sides. A path that matches some template but not with the
 * request's method is reported so the server can answer 405 instead of 404.
 */
import type { Method, SandboxRoute } from './types';

interface CompiledRoute {
  route: SandboxRoute;
  segments: string[];
}

export type RouteMatch =
  | { kind: 'found'; route: SandboxRoute; params: Record<string, string> }
  | { kind: 'wrong-method'; allowed: Method[] }
  | { kind: 'not-found' };

function split(path: string): string[] {
  return path.split('/').filter((s) => s !== '');
}

export class Router {
  private readonly compiled: CompiledRoute[];

  constructor(routes: SandboxRoute[]) {
    // Literal segments win over placeholders (`/organizations/billing-accounts/{id}` before
    // `/organizations/{id}/networks`).
    this.compiled = routes
      .map((route) => ({ route, segments: split(route.template) }))
      .sort((a, b) => compareSpecificity(a.segments, b.segments));
  }

  match(method: Method | string, path: string): RouteMatch {
    const parts = split(path);
    const allowed: Method[] = [];
    for (const { route, segments } of this.compiled) {
      const params = matchSegments(segments, parts);
      if (params === null) continue;
      if (route.method === method) return { kind: 'found', route, params };
      if (!allowed.includes(route.method)) allowed.push(route.method);
    }
    return allowed.length > 0 ? { kind: 'wrong-method', allowed } : { kind: 'not-found' };
  }
}

function isParam(segment: string): boolean {
  return segment.startsWith('{') && segment.endsWith('}');
}

/** Literal segments sort before placeholders, position by position. */
function compareSpecificity(a: string[], b: string[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const diff = Number(isParam(a[i] as string)) - Number(isParam(b[i] as string));
    if (diff !== 0) return diff;
  }
  return 0;
}

function matchSegments(template: string[], parts: string[]): Record<string, string> | null {
  if (template.length !== parts.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < template.length; i++) {
    const t = template[i] as string;
    const p = parts[i] as string;
    if (isParam(t)) {
      let value: string;
      try {
        value = decodeURIComponent(p);
      } catch {
        return null;
      }
      params[t.slice(1, -1)] = value;
    } else if (t !== p) {
      return null;
    }
  }
  return params;
}
