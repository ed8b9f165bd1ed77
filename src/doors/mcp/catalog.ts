/**
 * The curated operations: each named operation of the `.graphql` files shipped in
 * `operations/mcp/`, and of the trusted-documents manifest when one is configured, becomes one
 * tool. Its name is the operation's name in snake_case, its description the comment lines right
 * above the operation (else the schema's descriptions of its root fields). Documents are sent
 * as they are written, so a manifest that registers a shipped file's text trusts its tool too.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  Kind,
  parse,
  TokenKind,
  validate,
  type DocumentNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import type { McpOperationType } from './runner';

/** One document and where it came from (for messages). */
export interface OperationSource {
  text: string;
  origin: string;
}

export interface CuratedOperation {
  /** The tool's name: the operation's name in snake_case. */
  tool: string;
  /** A title for people: the tool's name in words. */
  title: string;
  description: string;
  /** The document's text, sent as is. */
  query: string;
  operationName: string;
  type: McpOperationType;
  document: DocumentNode;
  operation: OperationDefinitionNode;
  origin: string;
}

/** The `.graphql` files of a folder, by name; none when the folder is missing. */
export function readOperationFolder(dir: string): OperationSource[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => name.endsWith('.graphql')).sort();
  } catch {
    return [];
  }
  return names.map((name) => ({ text: readFileSync(join(dir, name), 'utf8'), origin: join(dir, name) }));
}

/** `ListNetworks` → `list_networks`, `WhoCanReachV2Service` → `who_can_reach_v2_service`. */
export function snakeCase(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9_]+/g, '_')
    .toLowerCase()
    .slice(0, 64);
}

function titleOf(tool: string): string {
  const words = tool.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The `#` comment lines directly above the operation (no blank line between), joined. */
function leadingComment(operation: OperationDefinitionNode): string {
  const start = operation.loc?.startToken;
  if (!start) return '';
  const lines: string[] = [];
  let line = start.line;
  for (let token = start.prev; token && token.kind === TokenKind.COMMENT && token.line === line - 1; token = token.prev) {
    lines.unshift(token.value.trim());
    line = token.line;
  }
  return lines.join(' ').replace(/\s+/g, ' ').trim();
}

function rootFieldDescriptions(schema: GraphQLSchema, operation: OperationDefinitionNode): string {
  const root = schema.getRootType(operation.operation);
  const descriptions = operation.selectionSet.selections.flatMap((s) => (s.kind === Kind.FIELD ? [root?.getFields()[s.name.value]?.description ?? ''] : []));
  return descriptions.filter((d) => d !== '').join(' ').replace(/\s+/g, ' ').trim();
}

/**
 * The tools the sources define. A document that does not parse or validate against the schema,
 * an anonymous operation, or a name already taken is left out, and `warn` says why.
 */
export function buildCatalog(schema: GraphQLSchema, sources: readonly OperationSource[], warn: (message: string) => void): CuratedOperation[] {
  const tools: CuratedOperation[] = [];
  const taken = new Set<string>();
  for (const source of sources) {
    let document: DocumentNode;
    try {
      document = parse(source.text);
    } catch (error) {
      warn(`MCP: ${source.origin} does not parse (${error instanceof Error ? error.message : String(error)}); no tool for it`);
      continue;
    }
    const errors = validate(schema, document);
    if (errors.length > 0) {
      warn(`MCP: ${source.origin} does not validate (${errors[0]?.message ?? ''}); no tool for it`);
      continue;
    }
    for (const definition of document.definitions) {
      if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
      const operationName = definition.name?.value;
      if (!operationName) {
        warn(`MCP: an anonymous operation in ${source.origin} has no tool (tools are named after operations)`);
        continue;
      }
      const tool = snakeCase(operationName);
      if (taken.has(tool)) {
        warn(`MCP: ${operationName} in ${source.origin} would be tool ${tool}, which is taken; left out`);
        continue;
      }
      taken.add(tool);
      tools.push({
        tool,
        title: titleOf(tool),
        description: leadingComment(definition) || rootFieldDescriptions(schema, definition) || titleOf(tool),
        query: source.text,
        operationName,
        type: definition.operation,
        document,
        operation: definition,
        origin: source.origin,
      });
    }
  }
  return tools;
}
