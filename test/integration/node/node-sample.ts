/**
 * One object of every `Node` type, read from the typed lists of a running stack: what the node
 * tests (and the Relay end-to-end test) refetch by global id.
 */
import type { Stack } from '../../helpers/stack';

export interface NodeSample {
  typename: string;
  nodeId: string;
  /** The REST identity: `id`, or `grantId` for grants (see idField). */
  id: string;
}

/** Grant kinds that are Nodes: no REST `id`, their identity is `grantId` (within kind and identity). */
const GRANT_NODE_TYPES = {
  CustomRoleGrant: 'CustomRole',
  IdentityResourceActionGrant: 'IdentityResourceAction',
  PublicGrantGrant: 'PublicGrant',
  SuperUserGrant: 'SuperUser',
} as const;

/** The field holding a Node type's REST identity. */
export function idField(typename: string): 'id' | 'grantId' {
  return Object.hasOwn(GRANT_NODE_TYPES, typename) ? 'grantId' : 'id';
}

/** Selects `typename`'s REST identity as `id` (what NodeSample holds). */
export function idSelection(typename: string): string {
  return idField(typename) === 'id' ? 'id' : 'id: grantId';
}

const ONE = '__typename nodeId id';
const first = (field: string): string => `${field}(first: 1) { nodes { ${ONE} } }`;
/** One grant of each kind (an alias per kind: one list of each). */
const grants = Object.entries(GRANT_NODE_TYPES)
  .map(([typename, kind]) => `${kind}: grants(grantType: ${kind}, first: 1) { nodes { __typename ... on ${typename} { nodeId ${idSelection(typename)} } } }`)
  .join(' ');

/** Every list that holds one Node type, under the root or under the first network. */
export const SAMPLE_QUERY = `{
  ${first('networkGroups')}
  ${first('hosts')} ${first('dataCenters')} ${first('geoRegions')} ${first('networkConfigMetadatas')} ${first('cloudSubscriptions')}
  networks(first: 1) { nodes { ${ONE}
    ${first('endpoints')} ${first('services')} ${first('appWans')} ${first('endpointGroups')} ${first('gatewayClusters')}
    ${first('certificateAuthorities')} ${first('serviceGroups')} ${first('transferNodePools')} } }
  ${first('domains')} ${first('resourceTypes')} ${first('resourceActions')} ${first('superUsers')} ${first('publicGrants')}
  ${grants}
  ${first('v2Networks')} ${first('edgeRouters')} ${first('edgeRouterPolicies')} ${first('v2Services')} ${first('v2AppWans')} ${first('v2Endpoints')}
}`;

/** Every object with a `nodeId` anywhere in an answer. */
export function samplesIn(value: unknown, into: NodeSample[] = []): NodeSample[] {
  if (Array.isArray(value)) {
    for (const item of value) samplesIn(item, into);
  } else if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    const { __typename: typename, nodeId, id } = record;
    if (typeof typename === 'string' && typeof nodeId === 'string' && typeof id === 'string') into.push({ typename, nodeId, id });
    for (const child of Object.values(record)) samplesIn(child, into);
  }
  return into;
}

/** One sample per Node type the stack's seed holds. */
export async function nodeSamples(stack: Stack): Promise<NodeSample[]> {
  const result = await stack.gql(SAMPLE_QUERY);
  if (result.body.errors !== undefined) throw new Error(`sample query failed: ${JSON.stringify(result.body.errors)}`);
  const byType = new Map<string, NodeSample>();
  for (const sample of samplesIn(result.body.data)) if (!byType.has(sample.typename)) byType.set(sample.typename, sample);
  return [...byType.values()];
}
