/**
 * `Node`: every type's `nodeId`, and `Query.node`/`Query.nodes`, which decode ids (global-ids.ts)
 * and read through the typed lookups' loaders, so they batch and cost as those do.
 */
import { isObjectType, type GraphQLResolveInfo } from 'graphql';
import type { GatewayContext } from '../../context';
import type { Resolvers, ResolversParentTypes } from '../../generated/graphql';
import { selectionOf, type Selection } from '../lookahead';
import { BadInputError } from '../../errors/codes';
import { decodeNodeId, loadNode, NODE_TYPES, nodeIdOf, type NodeTypeName } from './global-ids';

/** Most ids `nodes(nodeIds:)` takes in one call (GitHub's limit too). */
export const MAX_NODE_IDS = 100;

type NodeRecord = ResolversParentTypes[NodeTypeName];

/**
 * The type each record read by `node`/`nodes` was read as: records carry no type of their own,
 * and a loader's record is only ever of its loader's type.
 */
const readAs = new WeakMap<object, NodeTypeName>();

/**
 * Decodes now (a bad id throws before any read starts) and returns the read to start: the object's
 * typed lookup, with the selection below as its type sees it (fragments on other types left out).
 */
function read(ctx: GatewayContext, info: GraphQLResolveInfo, nodeId: string, argument: string): () => Promise<NodeRecord> {
  const decoded = decodeNodeId(nodeId, argument);
  const as = info.schema.getType(decoded.type);
  const selection = (): Selection => (isObjectType(as) ? selectionOf(info, as) : new Map());
  return () =>
    loadNode({ ctx, selection }, decoded).then((record) => {
      readAs.set(record, decoded.type);
      return record;
    });
}

const nodeIdFields = Object.fromEntries(
  (Object.keys(NODE_TYPES) as NodeTypeName[]).map((type) => [type, { nodeId: (record: ResolversParentTypes[typeof type]) => nodeIdOf(type, record) }]),
);

export const nodeResolvers: Resolvers = {
  ...nodeIdFields,
  Node: {
    __resolveType: (record) => readAs.get(record) ?? null,
  },
  Query: {
    node: (_root, { nodeId }, ctx, info) => read(ctx, info, nodeId, 'nodeId')(),
    nodes: (_root, { nodeIds }, ctx, info) => {
      if (nodeIds.length > MAX_NODE_IDS) throw new BadInputError('nodeIds', `nodeIds: at most ${MAX_NODE_IDS} ids, got ${nodeIds.length}.`);
      // Every id decoded before the first read: one bad id costs no upstream call.
      const reads = nodeIds.map((id, i) => read(ctx, info, id, `nodeIds[${i}]`));
      return reads.map((start) => start());
    },
  },
};
