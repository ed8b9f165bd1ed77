/**
 * `@stream` on a connection's `nodes`, where the REST interface pages: the connection is answered
 * once the first upstream page is in, and its `nodes` continue page by page, a later page fetched
 * only when the executor asks for more items. Without an active `@stream` on `nodes` nothing here
 * runs: the list is read as before (same calls, same cache), so plain queries cost what they did.
 *
 * A connection that also selects `edges` is not streamed (its cursors need the whole window).
 * `pageInfo` and `totalCount` come from the first page's totals: the window's size is known then.
 */
import {
  defaultFieldResolver,
  getDirectiveValues,
  getNamedType,
  getNullableType,
  isListType,
  isObjectType,
  Kind,
  type FieldNode,
  type GraphQLResolveInfo,
  type GraphQLSchema,
  type SelectionSetNode,
} from 'graphql';
import type { GatewayContext } from '../context';
import type { PagedResult, PageWindow as UpstreamWindow } from '../upstream/paging';
import { encodeCursor, pageWindow, type Connection, type ConnectionArgs, type Edge, type PageInfo, type PageWindow } from './connection';

/** What a streamed list needs of the request: its budget (items counted, a crossed budget stops the pages), its cancellation, and whether the answer comes in parts. */
export type StreamScope = Pick<GatewayContext, 'budget' | 'cancellation' | 'inParts'>;

/** Whether `nodes` carries an active `@stream` (its `if` not false) on one of these field nodes. */
export function streamsHere(nodes: readonly FieldNode[], info: Pick<GraphQLResolveInfo, 'schema' | 'variableValues'>): boolean {
  return nodes.some((node) => {
    if (node.directives === undefined || !node.directives.some((d) => d.name.value === 'stream')) return false;
    const stream = info.schema.getDirective('stream');
    if (stream === undefined || stream === null) return false;
    try {
      return getDirectiveValues(stream, node, info.variableValues)?.['if'] !== false;
    } catch {
      return false; // validation ran: a directive that does not coerce streams nothing
    }
  });
}

/** The `nodes` and whether `edges` are selected on a connection field (fragments followed). */
function connectionFields(set: SelectionSetNode | undefined, info: GraphQLResolveInfo, out: { nodes: FieldNode[]; edges: boolean }): void {
  for (const selection of set?.selections ?? []) {
    if (selection.kind === Kind.FIELD) {
      if (selection.name.value === 'nodes') out.nodes.push(selection);
      else if (selection.name.value === 'edges') out.edges = true;
    } else {
      const fragment = selection.kind === Kind.INLINE_FRAGMENT ? selection : info.fragments[selection.name.value];
      connectionFields(fragment?.selectionSet, info, out);
    }
  }
}

/** Whether the connection field being resolved streams its `nodes` (and selects no `edges`). */
export function streamsNodes(info: GraphQLResolveInfo): boolean {
  const fields = { nodes: [] as FieldNode[], edges: false };
  for (const node of info.fieldNodes) connectionFields(node.selectionSet, info, fields);
  return !fields.edges && fields.nodes.length > 0 && streamsHere(fields.nodes, info);
}

/**
 * A connection whose `nodes` hold the first upstream page and go on with the later ones (read by
 * `streamableNodes` below). Built after the first page: `totalCount` and `pageInfo` are known then.
 */
export class StreamedConnection<T> implements Connection<T> {
  constructor(
    readonly nodes: T[],
    readonly totalCount: number,
    private readonly window: PageWindow,
    private readonly rest: AsyncIterator<PagedResult<T>, void, undefined>,
    private readonly scope: StreamScope,
  ) {}

  /** Never read: a streamed connection selects no `edges` (`streamsNodes`); built from the first page if it were. */
  get edges(): Edge<T>[] {
    return this.nodes.map((node, i) => ({ cursor: encodeCursor(this.window.offset + i), node }));
  }

  get pageInfo(): PageInfo {
    const { offset, limit } = this.window;
    const count = Math.max(0, Math.min(limit, this.totalCount - offset));
    return {
      hasNextPage: offset + count < this.totalCount,
      hasPreviousPage: offset > 0,
      startCursor: count > 0 ? encodeCursor(offset) : null,
      endCursor: count > 0 ? encodeCursor(offset + count - 1) : null,
    };
  }

  /** The items, the first page's then each later page's as it comes; counted on the budget, stopped by it and by the client leaving. */
  async *items(): AsyncGenerator<T, void, undefined> {
    const { budget, cancellation } = this.scope;
    try {
      budget.addNodes(this.nodes.length);
      yield* this.nodes;
      for (;;) {
        if (cancellation.aborted) return;
        budget.check();
        const page = await this.rest.next();
        if (page.done === true) return;
        budget.addNodes(page.value.items.length);
        yield* page.value.items;
      }
    } finally {
      // Stopped early (client gone, an error, the executor's return()): the pages' generator ends without another call.
      await this.rest.return?.();
    }
  }
}

/**
 * A streamed connection when the answer comes in parts and the field's `nodes` carry an active
 * `@stream`, else null (the caller reads the list as it always did). The arguments are checked before the first call.
 */
export function streamedConnection<T>(
  info: GraphQLResolveInfo,
  scope: StreamScope,
  args: ConnectionArgs,
  pages: (window: UpstreamWindow) => AsyncGenerator<PagedResult<T>, void, undefined>,
): Promise<Connection<T>> | null {
  if (scope.inParts !== true || !streamsNodes(info)) return null;
  const window = pageWindow(args);
  const source = pages({ offset: window.offset, count: window.limit });
  return source.next().then((first) => {
    const page = first.done === true ? { items: [], totalCount: window.offset } : first.value;
    return new StreamedConnection(page.items, page.totalCount, window, source, scope);
  });
}

/**
 * Gives every connection type's `nodes` the resolver that streams a `StreamedConnection` (only
 * where that very field node carries an active `@stream`: the executor that runs it then reads
 * async lists); any other source is read as the default resolver reads it. Call once per schema,
 * before the budget's instrumentation wraps the fields.
 */
export function streamableNodes(schema: GraphQLSchema): GraphQLSchema {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || !type.name.endsWith('Connection')) continue;
    const nodes = type.getFields()['nodes'];
    if (nodes === undefined || nodes.resolve !== undefined || !isListType(getNullableType(nodes.type)) || !isObjectType(getNamedType(nodes.type))) continue;
    nodes.resolve = (source, args, context, info) =>
      source instanceof StreamedConnection && streamsHere(info.fieldNodes, info) ? source.items() : defaultFieldResolver(source, args, context, info);
  }
  return schema;
}
