/**
 * JSON Schema from GraphQL, for tool definitions: an operation's variables become the tool's input
 * schema (descriptions from the arguments and input fields they feed), its selection set the
 * output schema (descriptions from the fields). Scalars map by a table; non-null means required
 * (inputs) or not nullable (outputs).
 */
import {
  astFromValue,
  getNamedType,
  isAbstractType,
  isCompositeType,
  isEnumType,
  isInputObjectType,
  isLeafType,
  isListType,
  isNonNullType,
  isScalarType,
  isUnionType,
  Kind,
  TypeInfo,
  typeFromAST,
  valueFromASTUntyped,
  visit,
  visitWithTypeInfo,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLInputType,
  type GraphQLNamedType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValueNode,
} from 'graphql';

export type JsonSchema = { [keyword: string]: unknown };
/** A tool's input or output schema: always an object at the top (MCP requires it). */
export interface ObjectSchema extends JsonSchema {
  type: 'object';
  properties: Record<string, JsonSchema>;
  required?: string[];
}

/** Scalars by name; any other scalar accepts any JSON value. */
const SCALARS: Readonly<Record<string, JsonSchema>> = {
  Int: { type: 'integer', minimum: -2147483648, maximum: 2147483647 },
  Float: { type: 'number' },
  String: { type: 'string' },
  Boolean: { type: 'boolean' },
  ID: { type: 'string' },
  UUID: { type: 'string', format: 'uuid' },
  DateTime: { type: 'string', format: 'date-time' },
  JSON: {},
};

/** Output schemas leave out `format` and bounds: they describe data, and validators differ on formats. */
const OUTPUT_SCALARS: Readonly<Record<string, JsonSchema>> = {
  Int: { type: 'integer' },
  Float: { type: 'number' },
  String: { type: 'string' },
  Boolean: { type: 'boolean' },
  ID: { type: 'string' },
  UUID: { type: 'string' },
  DateTime: { type: 'string' },
  JSON: {},
};

function described(schema: JsonSchema, description: string | null | undefined): JsonSchema {
  return description ? { ...schema, description } : schema;
}

/** The schema of one input type; input objects inline, a recursive one left open past its first level. */
export function inputTypeSchema(type: GraphQLInputType, path: ReadonlySet<string> = new Set()): JsonSchema {
  if (isNonNullType(type)) return inputTypeSchema(type.ofType, path);
  if (isListType(type)) return { type: 'array', items: inputTypeSchema(type.ofType, path) };
  if (isEnumType(type)) return described({ type: 'string', enum: type.getValues().map((v) => v.name) }, enumDescription(type.description, type.getValues()));
  if (isInputObjectType(type)) {
    if (path.has(type.name)) return described({ type: 'object' }, `${type.name} (the same shape as its parent)`);
    const inner = new Set(path).add(type.name);
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    for (const field of Object.values(type.getFields())) {
      let schema = described(inputTypeSchema(field.type, inner), field.description);
      const fallback = field.defaultValue === undefined ? undefined : jsonValue(astFromValue(field.defaultValue, field.type));
      if (fallback !== undefined) schema = { ...schema, default: fallback };
      else if (isNonNullType(field.type)) required.push(field.name);
      properties[field.name] = schema;
    }
    return described({ type: 'object', properties, ...(required.length ? { required } : {}), additionalProperties: false }, type.description);
  }
  return described(SCALARS[type.name] ?? {}, SCALARS[type.name] ? null : type.description);
}

function enumDescription(description: string | null | undefined, values: ReadonlyArray<{ name: string; description?: string | null | undefined }>): string | null {
  const explained = values.filter((v) => v.description).map((v) => `${v.name}: ${v.description ?? ''}`);
  const parts = [description ?? '', explained.length ? explained.join('; ') : ''].filter((p) => p !== '');
  return parts.length ? parts.join(' ') : null;
}

function jsonValue(node: ValueNode | null | undefined): unknown {
  return node ? valueFromASTUntyped(node) : undefined;
}

/**
 * Where each variable is used: the description of the argument or input field it feeds (the
 * first use wins), so a tool's input says what `$networkId` means in the schema's words.
 */
function variableUses(schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode): Map<string, string> {
  const found = new Map<string, string>();
  const feed = (value: ValueNode, type: GraphQLInputType, description: string | null | undefined): void => {
    if (value.kind === Kind.VARIABLE) {
      if (description && !found.has(value.name.value)) found.set(value.name.value, description);
      return;
    }
    const named = getNamedType(type);
    if (value.kind === Kind.LIST) {
      const list = isNonNullType(type) ? type.ofType : type;
      for (const item of value.values) feed(item, isListType(list) ? list.ofType : type, description);
    } else if (value.kind === Kind.OBJECT && isInputObjectType(named)) {
      const fields = named.getFields();
      for (const field of value.fields) {
        const definition = fields[field.name.value];
        if (definition) feed(field.value, definition.type, definition.description);
      }
    }
  };
  const typeInfo = new TypeInfo(schema);
  const visitor = visitWithTypeInfo(typeInfo, {
    Field(node) {
      const definition = typeInfo.getFieldDef();
      for (const argument of node.arguments ?? []) {
        const arg = definition?.args.find((a) => a.name === argument.name.value);
        if (arg) feed(argument.value, arg.type, arg.description);
      }
    },
  });
  visit(operation, visitor);
  // Fragments the operation spreads use its variables too.
  for (const definition of document.definitions) if (definition.kind === Kind.FRAGMENT_DEFINITION) visit(definition, visitor);
  return found;
}

/** The input schema of an operation: one property per variable; non-null without a default is required. */
export function variablesSchema(schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode): ObjectSchema {
  const uses = variableUses(schema, document, operation);
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const definition of operation.variableDefinitions ?? []) {
    const name = definition.variable.name.value;
    const type = typeFromAST(schema, definition.type) as GraphQLInputType | undefined;
    if (!type) continue;
    const named = getNamedType(type);
    let property = described(inputTypeSchema(type), uses.get(name) ?? named.description);
    if (definition.defaultValue) property = { ...property, default: valueFromASTUntyped(definition.defaultValue) };
    else if (isNonNullType(type)) required.push(name);
    properties[name] = property;
  }
  return { type: 'object', properties, ...(required.length ? { required } : {}), additionalProperties: false };
}

/** The output schema of an operation: the shape of its `data`. */
export function dataSchema(schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode): ObjectSchema {
  const root = schema.getRootType(operation.operation);
  if (!root) return { type: 'object', properties: {} };
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  return selectionSchema(schema, root, operation.selectionSet, fragments);
}

interface CollectedField {
  /** Each selection of the response key, with the type it was selected on (an inline fragment's, under an abstract parent). */
  nodes: Array<{ node: FieldNode; owner: GraphQLCompositeType }>;
  /** False when a type condition or @skip/@include may leave the field out. */
  always: boolean;
}

function selectionSchema(schema: GraphQLSchema, parent: GraphQLCompositeType, selectionSet: SelectionSetNode, fragments: ReadonlyMap<string, FragmentDefinitionNode>): ObjectSchema {
  const fields = new Map<string, CollectedField>();
  collect(schema, parent, selectionSet, fragments, true, fields, new Set());
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const [key, { nodes, always }] of fields) {
    const first = nodes[0];
    if (!first) continue;
    const name = first.node.name.value;
    if (name === '__typename') {
      properties[key] = { type: 'string' };
    } else {
      const definition = isUnionType(first.owner) ? undefined : first.owner.getFields()[name];
      if (!definition) continue;
      const merged: SelectionSetNode = { kind: Kind.SELECTION_SET, selections: nodes.flatMap((n) => n.node.selectionSet?.selections ?? []) };
      properties[key] = described(outputTypeSchema(schema, definition.type, merged, fragments), definition.description);
    }
    if (always) required.push(key);
  }
  return { type: 'object', properties, ...(required.length ? { required } : {}), additionalProperties: false };
}

function collect(
  schema: GraphQLSchema,
  parent: GraphQLCompositeType,
  selectionSet: SelectionSetNode,
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
  always: boolean,
  into: Map<string, CollectedField>,
  spread: Set<string>,
): void {
  for (const selection of selectionSet.selections) {
    const conditional = (selection.directives ?? []).some((d) => d.name.value === 'skip' || d.name.value === 'include');
    const here = always && !conditional;
    if (selection.kind === Kind.FIELD) {
      const key = selection.alias?.value ?? selection.name.value;
      const entry = into.get(key) ?? { nodes: [], always: false };
      // The node remembers which type it was selected on (an inline fragment's), for its definition.
      entry.nodes.push({ node: selection, owner: parent });
      entry.always ||= here;
      into.set(key, entry);
      continue;
    }
    const fragment = selection.kind === Kind.INLINE_FRAGMENT ? selection : fragments.get(selection.name.value);
    if (!fragment) continue;
    if (selection.kind === Kind.FRAGMENT_SPREAD) {
      if (spread.has(selection.name.value)) continue;
      spread.add(selection.name.value);
    }
    const condition = fragment.typeCondition ? schema.getType(fragment.typeCondition.name.value) : parent;
    const target = condition && isCompositeType(condition) ? condition : parent;
    collect(schema, target, fragment.selectionSet, fragments, here && covers(schema, target, parent), into, spread);
    if (selection.kind === Kind.FRAGMENT_SPREAD) spread.delete(selection.name.value);
  }
}

/** True when every object of `parent` is a `condition` (the fragment always applies). */
function covers(schema: GraphQLSchema, condition: GraphQLNamedType, parent: GraphQLCompositeType): boolean {
  if (condition === parent) return true;
  if (!isAbstractType(condition)) return false;
  const possible = new Set(schema.getPossibleTypes(condition).map((t) => t.name));
  const mine = isAbstractType(parent) ? schema.getPossibleTypes(parent) : [parent];
  return mine.every((t) => possible.has(t.name));
}

function outputTypeSchema(schema: GraphQLSchema, type: GraphQLOutputType, selectionSet: SelectionSetNode, fragments: ReadonlyMap<string, FragmentDefinitionNode>): JsonSchema {
  if (isNonNullType(type)) return outputTypeSchema(schema, type.ofType, selectionSet, fragments);
  return orNull(nonNullOutput(schema, type, selectionSet, fragments));
}

function nonNullOutput(schema: GraphQLSchema, type: GraphQLOutputType, selectionSet: SelectionSetNode, fragments: ReadonlyMap<string, FragmentDefinitionNode>): JsonSchema {
  if (isNonNullType(type)) return nonNullOutput(schema, type.ofType, selectionSet, fragments);
  if (isListType(type)) return { type: 'array', items: outputTypeSchema(schema, type.ofType, selectionSet, fragments) };
  if (isEnumType(type)) return { type: 'string', enum: type.getValues().map((v) => v.name) };
  if (isLeafType(type)) return isScalarType(type) ? { ...(OUTPUT_SCALARS[type.name] ?? {}) } : {};
  return selectionSchema(schema, type, selectionSet, fragments);
}

/** A nullable value: the same schema, null allowed too. */
function orNull(schema: JsonSchema): JsonSchema {
  const type = schema['type'];
  if (typeof type !== 'string') return schema;
  const nullable: JsonSchema = { ...schema, type: [type, 'null'] };
  if (Array.isArray(schema['enum'])) nullable['enum'] = [...(schema['enum'] as unknown[]), null];
  return nullable;
}
