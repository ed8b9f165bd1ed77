/**
 * Network events (`ncentityevent`) for the rest/v1 proxy `/elastic/ncentityevent/{orgId}/_search/`.
 * Each organization's events live in the index `ncentityevent-<orgId>`, so the proxy scopes a
 * search to one organization by index name. Events are made on first use of an organization's
 * index, from the networks the rest/v1 seed reports (bound with `bindNetworkFacts`), with a
 * generator seeded by the organization id: the same organization always gets the same events.
 */
import { ADMIN_IDENTITY_ID } from '../core/identities';
import { createRandom } from '../core/random';
import type { SeedSize } from '../core/types';
import { TIMESTAMP_FIELD, type DocStore } from './doc-store';

export const NETWORK_EVENT_INDEX_PREFIX = 'ncentityevent-';
const SPAN_MS = 30 * 86_400_000;

/** What the search area needs to know of rest/v1's seed (a structural subset of its facts). */
export interface NetworkFacts {
  organizationIds: string[];
  networks: {
    id: string;
    name?: string;
    /** When absent, networks are spread over the organizations in order (n mod count). */
    organizationId?: string;
    endpointIds?: string[];
    serviceIds?: string[];
    appWanIds?: string[];
  }[];
}

const PER_ORG: Record<SeedSize, number> = { tiny: 40, demo: 300, large: 3000 };

const EVENT_KINDS: { resourceType: string; eventType: string; changeType: string | null; severity: string; description: string }[] = [
  { resourceType: 'Endpoint', eventType: 'Created', changeType: 'Create', severity: 'INFO', description: 'endpoint created' },
  { resourceType: 'Endpoint', eventType: 'Registered', changeType: null, severity: 'INFO', description: 'endpoint registered' },
  { resourceType: 'Endpoint', eventType: 'Online', changeType: null, severity: 'INFO', description: 'endpoint came online' },
  { resourceType: 'Endpoint', eventType: 'Offline', changeType: null, severity: 'WARNING', description: 'endpoint went offline' },
  { resourceType: 'Service', eventType: 'Updated', changeType: 'Update', severity: 'INFO', description: 'service definition updated' },
  { resourceType: 'AppWan', eventType: 'Updated', changeType: 'Update', severity: 'INFO', description: 'AppWAN membership changed' },
  { resourceType: 'Network', eventType: 'Provisioned', changeType: null, severity: 'INFO', description: 'network provisioned' },
  { resourceType: 'Network', eventType: 'Error', changeType: null, severity: 'ERROR', description: 'network controller unreachable' },
];

function hash(text: string): number {
  let h = 2166136261;
  for (let k = 0; k < text.length; k++) h = Math.imul(h ^ text.charCodeAt(k), 16777619);
  return h >>> 0;
}

export class NetworkEvents {
  private facts: () => NetworkFacts | null = () => null;
  private made = new Set<string>();

  constructor(
    private readonly size: () => SeedSize,
    private readonly seededAt: () => number,
  ) {}

  bind(facts: () => NetworkFacts | null): void {
    this.facts = facts;
  }

  /** Forget what was made (after a re-seed the store is new). */
  reset(): void {
    this.made = new Set();
  }

  /** Makes the events of every organization the index expression can name. */
  ensure(store: DocStore, expression: string): void {
    const facts = this.facts();
    for (const part of expression.split(',').map((s) => s.trim())) {
      if (part === '_all' || part.includes('*')) {
        const re = new RegExp(`^${part.split('*').map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
        for (const orgId of facts?.organizationIds ?? []) if (re.test(NETWORK_EVENT_INDEX_PREFIX + orgId)) this.make(store, orgId, facts);
      } else if (part.startsWith(NETWORK_EVENT_INDEX_PREFIX)) {
        const orgId = part.slice(NETWORK_EVENT_INDEX_PREFIX.length);
        // Without rest/v1 facts any organization gets synthetic events; with them, only known ones.
        if (facts === null || facts.organizationIds.includes(orgId)) this.make(store, orgId, facts);
      }
    }
  }

  private make(store: DocStore, orgId: string, facts: NetworkFacts | null): void {
    if (this.made.has(orgId)) return;
    this.made.add(orgId);
    const random = createRandom(hash(orgId));
    const orgIndex = facts?.organizationIds.indexOf(orgId) ?? 0;
    const orgCount = Math.max(1, facts?.organizationIds.length ?? 1);
    const networks = (facts?.networks ?? [{ id: random.uuid(), name: 'network-1' }]).filter((n, i) =>
      n.organizationId !== undefined ? n.organizationId === orgId : i % orgCount === orgIndex,
    );
    if (networks.length === 0) return;
    const count = PER_ORG[this.size()];
    const now = this.seededAt();
    store.reserve(count);
    for (let n = 0; n < count; n++) {
      const network = networks[Math.floor(random.next() * networks.length)] as (typeof networks)[number];
      const kind = EVENT_KINDS[Math.floor(random.next() * EVENT_KINDS.length)] as (typeof EVENT_KINDS)[number];
      const pool = kind.resourceType === 'Endpoint' ? network.endpointIds : kind.resourceType === 'Service' ? network.serviceIds : kind.resourceType === 'AppWan' ? network.appWanIds : [network.id];
      const resourceId = (pool !== undefined && pool.length > 0 ? pool[Math.floor(random.next() * pool.length)] : undefined) ?? random.uuid();
      const resourceName = kind.resourceType === 'Network' ? (network.name ?? 'network') : `${kind.resourceType.toLowerCase()}-${resourceId.slice(0, 8)}`;
      const ts = now - Math.floor(random.next() * SPAN_MS);
      store.add(NETWORK_EVENT_INDEX_PREFIX + orgId, {
        organizationId: orgId,
        networkId: network.id,
        resourceId,
        resourceType: kind.resourceType,
        eventType: kind.eventType,
        eventDescription: `${resourceName}: ${kind.description}`,
        eventSeverity: kind.severity,
        eventSource: kind.changeType === null ? 'Controller' : 'Console',
        commonName: resourceName,
        resourceName,
        tags: kind.resourceType === 'Endpoint' ? ['#employees'] : [],
        changeType: kind.changeType,
        [TIMESTAMP_FIELD]: ts,
        timestamp: new Date(ts).toISOString(),
        identityId: kind.changeType === null ? null : ADMIN_IDENTITY_ID,
        traceId: random.uuid(),
      });
    }
  }
}
