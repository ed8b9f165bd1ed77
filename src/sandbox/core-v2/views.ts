/**
 * Wire views of core/v2 records: the create input echoed, `id`, `status` word, audit fields,
 * `jwt` on endpoints, and `_links` (`self`, `execution` for created resources, `network`) with
 * absolute hrefs.
 */
import type { JsonMap } from '../auth/input';
import { kindOf } from './kinds';
import { executionStatusAt, statusAt, type V2Execution, type V2Resource } from './store';

export const V2_PREFIX = '/core/v2';

export interface ViewClock {
  now: number;
  stepMs: number;
  origin: string;
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

export function resourceView(r: V2Resource, at: ViewClock): JsonMap {
  const kind = kindOf(r.kind);
  const links: Record<string, { href: string }> = { self: { href: `${at.origin}${V2_PREFIX}/${kind.plural}/${r.id}` } };
  if (r.executionId !== null) links['execution'] = { href: `${at.origin}${V2_PREFIX}/executions/${r.executionId}` };
  const networkId = r.data['networkId'];
  if (typeof networkId === 'string') links['network'] = { href: `${at.origin}${V2_PREFIX}/networks/${networkId}` };
  const out: JsonMap = {
    id: r.id,
    ...r.data,
    status: statusAt(r.createdAt, at.now, at.stepMs),
    createdBy: r.createdBy,
    createdAt: iso(r.createdAt),
    updatedAt: iso(r.updatedAt),
  };
  if (r.kind === 'endpoint') out['jwt'] = r.jwt;
  out['_links'] = links;
  return out;
}

export function executionView(e: V2Execution, at: ViewClock): JsonMap {
  const kind = kindOf(e.kind);
  const status = executionStatusAt(e.createdAt, at.now, at.stepMs);
  return {
    id: e.id,
    name: `Create ${kind.label}`,
    action: e.action,
    resourceType: kind.label,
    resourceId: e.resourceId,
    networkId: e.networkId,
    status,
    createdBy: e.createdBy,
    createdAt: iso(e.createdAt),
    updatedAt: iso(status === 'FINISHED' ? e.createdAt + 2 * at.stepMs : at.now),
    finishedAt: status === 'FINISHED' ? iso(e.createdAt + 2 * at.stepMs) : null,
    _links: {
      self: { href: `${at.origin}${V2_PREFIX}/executions/${e.id}` },
      resource: { href: `${at.origin}${V2_PREFIX}/${kind.plural}/${e.resourceId}` },
    },
  };
}

/** A fake one-time enrollment token in JWT form (the sandbox does not implement enrollment). */
export function enrollmentToken(endpointId: string, jti: string, expiresAt: number): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const signature = Buffer.from(jti.replace(/-/g, '') + endpointId.replace(/-/g, ''), 'hex').toString('base64url');
  return `${part({ alg: 'RS256', typ: 'JWT' })}.${part({ em: 'ott', sub: endpointId, jti, exp: Math.floor(expiresAt / 1000) })}.${signature}`;
}
