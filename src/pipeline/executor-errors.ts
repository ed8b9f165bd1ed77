/**
 * graphql-jit's field errors made identical to graphql-js's, so that Apollo, the gateway's
 * `formatError` (src/errors) and clients see the same thing on either executor:
 *
 * - graphql-jit builds its own error objects (no `nodes`/`source`, `extensions` only from the
 *   original error): each becomes a graphql-js `GraphQLError` with the same message, path and
 *   locations, as graphql-js's `locatedError` would make it;
 * - graphql-js wraps its own failures (`Cannot return null for non-nullable field …`, a value
 *   that is not a list) around an `Error`; graphql-jit gives no original error: one is supplied;
 * - graphql-jit keeps only the message of an error a scalar's `serialize` threw (e.g. DateTime's
 *   `UPSTREAM_BAD_RESPONSE`): its serializers remember the last errors by message, and the error
 *   gets its original back.
 */
import { GraphQLError, type DocumentNode, type GraphQLLeafType } from 'graphql';

/** How many distinct serialize errors are remembered at once (they are looked up synchronously after the throw). */
const REMEMBERED_SERIALIZE_ERRORS = 64;

export interface SerializeErrorMemory {
  /** graphql-jit `customSerializers`: each leaf type's own `serialize`, remembering what it throws. */
  serializers: Record<string, (value: unknown) => unknown>;
  /** The error a serializer threw with this message, if still remembered. */
  recall(message: string): Error | undefined;
}

export function createSerializeErrorMemory(types: readonly GraphQLLeafType[]): SerializeErrorMemory {
  const thrown = new Map<string, Error>();
  const serializers: Record<string, (value: unknown) => unknown> = {};
  for (const type of types) {
    serializers[type.name] = (value) => {
      try {
        return type.serialize(value);
      } catch (error) {
        if (error instanceof Error) {
          if (thrown.size >= REMEMBERED_SERIALIZE_ERRORS) thrown.clear();
          thrown.set(error.message, error);
        }
        throw error;
      }
    };
  }
  return { serializers, recall: (message) => thrown.get(message) };
}

/** Offset of each line of the document's text (graphql-js counts `\r\n`, `\n` and `\r` as line ends). */
export function lineStartsOf(document: DocumentNode): number[] {
  const body = document.loc?.source.body;
  if (body === undefined) return [];
  const starts = [0];
  for (const match of body.matchAll(/\r\n|[\n\r]/g)) starts.push((match.index ?? 0) + match[0].length);
  return starts;
}

/** The errors of a graphql-jit result as graphql-js would have reported them. */
export function toGraphQLJsErrors(
  errors: readonly GraphQLError[],
  document: DocumentNode,
  lineStarts: readonly number[],
  memory: SerializeErrorMemory,
): GraphQLError[] {
  return errors.map((error) => toGraphQLJsError(error, document, lineStarts, memory));
}

function toGraphQLJsError(error: GraphQLError, document: DocumentNode, lineStarts: readonly number[], memory: SerializeErrorMemory): GraphQLError {
  const original = error.originalError ?? memory.recall(error.message) ?? new Error(error.message);
  // graphql-js's locatedError keeps an error that already has a path, and an error's own nodes.
  if (original instanceof GraphQLError) {
    if (Array.isArray(original.path)) return original;
    if (original.nodes) return new GraphQLError(error.message, { nodes: original.nodes, source: original.source, positions: original.positions, path: error.path, originalError: original });
  }
  const source = document.loc?.source;
  const positions = source && error.locations ? error.locations.map((l) => (lineStarts[l.line - 1] ?? 0) + l.column - 1) : undefined;
  return new GraphQLError(error.message, { source, positions, path: error.path, originalError: original });
}
