/**
 * What an assistant reads before writing a query: one type (or field) of the schema, minified,
 * and the types and fields whose names or descriptions hold given words. Both read the schema
 * only: no caller data, no upstream call.
 */
import {
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
  isUnionType,
  parse,
  print,
  printType,
  stripIgnoredCharacters,
  visit,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputField,
  type GraphQLNamedType,
  type GraphQLSchema,
} from 'graphql';

export type IntrospectFormat = 'sdl' | 'json';

export type Introspected = { ok: true; text: string; json: Record<string, unknown> | null } | { ok: false; message: string };

/** Descriptions in search results are cut to this many characters. */
const DESCRIPTION_CHARS = 200;

const visibleTypes = (schema: GraphQLSchema): GraphQLNamedType[] =>
  Object.values(schema.getTypeMap()).filter((type) => !type.name.startsWith('__'));

/** A type by name (`Network`), or one field of it (`Query.networks`), as minified SDL or compact JSON. */
export function introspect(schema: GraphQLSchema, name: string, format: IntrospectFormat, descriptions: boolean): Introspected {
  const [typeName = '', fieldName] = name.split('.', 2);
  const type = schema.getType(typeName);
  if (!type || typeName.startsWith('__')) {
    const near = visibleTypes(schema)
      .map((t) => t.name)
      .filter((candidate) => candidate.toLowerCase().includes(typeName.toLowerCase()) || typeName.toLowerCase().includes(candidate.toLowerCase()))
      .slice(0, 10);
    return { ok: false, message: `no type named ${typeName}${near.length ? `; similar: ${near.join(', ')}` : ''} (search_schema finds types by words)` };
  }
  if (fieldName !== undefined) {
    const field = fieldsOf(type)?.[fieldName];
    if (!field) return { ok: false, message: `${type.name} has no field ${fieldName}` };
    const json = fieldJson(field);
    return { ok: true, text: format === 'json' ? JSON.stringify(json) : fieldSdl(type, field, descriptions), json };
  }
  const json = typeJson(type);
  return { ok: true, text: format === 'json' ? JSON.stringify(json) : minified(printType(type), descriptions), json };
}

function minified(sdl: string, descriptions: boolean): string {
  if (descriptions) return stripIgnoredCharacters(sdl);
  const bare = visit(parse(sdl), {
    enter(node) {
      return 'description' in node && node.description ? { ...node, description: undefined } : undefined;
    },
  });
  return stripIgnoredCharacters(print(bare));
}

/** One field as SDL: `type Query{networks(first:Int=100 …):NetworkConnection}`. */
function fieldSdl(type: GraphQLNamedType, field: GraphQLField<unknown, unknown> | GraphQLInputField, descriptions: boolean): string {
  const keep = <N extends { fields?: ReadonlyArray<{ name: { value: string } }> | undefined }>(node: N): N => ({ ...node, fields: node.fields?.filter((f) => f.name.value === field.name) });
  const only = visit(parse(printType(type)), { ObjectTypeDefinition: keep, InterfaceTypeDefinition: keep, InputObjectTypeDefinition: keep });
  return minified(print(only), descriptions);
}

function fieldsOf(type: GraphQLNamedType): Record<string, GraphQLField<unknown, unknown> | GraphQLInputField> | null {
  if (isObjectType(type) || isInterfaceType(type) || isInputObjectType(type)) return type.getFields();
  return null;
}

function argJson(arg: GraphQLArgument | GraphQLInputField): Record<string, unknown> {
  return {
    name: arg.name,
    type: String(arg.type),
    ...(arg.description ? { description: arg.description } : {}),
    ...(arg.defaultValue !== undefined ? { defaultValue: arg.defaultValue } : {}),
  };
}

function fieldJson(field: GraphQLField<unknown, unknown> | GraphQLInputField): Record<string, unknown> {
  const args = 'args' in field ? field.args : [];
  return {
    name: field.name,
    type: String(field.type),
    ...(field.description ? { description: field.description } : {}),
    ...(args.length ? { args: args.map(argJson) } : {}),
    ...('defaultValue' in field && field.defaultValue !== undefined ? { defaultValue: field.defaultValue } : {}),
  };
}

function typeJson(type: GraphQLNamedType): Record<string, unknown> {
  const kind = isObjectType(type) ? 'OBJECT' : isInterfaceType(type) ? 'INTERFACE' : isUnionType(type) ? 'UNION' : isEnumType(type) ? 'ENUM' : isInputObjectType(type) ? 'INPUT_OBJECT' : 'SCALAR';
  const fields = fieldsOf(type);
  return {
    kind,
    name: type.name,
    ...(type.description ? { description: type.description } : {}),
    ...(fields ? { [isInputObjectType(type) ? 'inputFields' : 'fields']: Object.values(fields).map(fieldJson) } : {}),
    ...(isObjectType(type) || isInterfaceType(type) ? { interfaces: type.getInterfaces().map((i) => i.name) } : {}),
    ...(isUnionType(type) ? { possibleTypes: type.getTypes().map((t) => t.name) } : {}),
    ...(isEnumType(type) ? { enumValues: type.getValues().map((v) => ({ name: v.name, ...(v.description ? { description: v.description } : {}) })) } : {}),
  };
}

export interface SchemaMatch {
  /** `Network` (a type), `Query.networks` (a field), `ServiceClass.CS` (an enum value). */
  coordinate: string;
  kind: 'type' | 'field' | 'inputField' | 'enumValue';
  /** The field's type (`NetworkConnection`, `[String!]!`); a type's kind (`OBJECT`). */
  type: string;
  description?: string;
}

interface Candidate extends SchemaMatch {
  /** Lower-cased name and description, searched by the words. */
  name: string;
  text: string;
  root: boolean;
}

function candidates(schema: GraphQLSchema): Candidate[] {
  const roots = new Set([schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()].filter((t) => t).map((t) => t?.name));
  const found: Candidate[] = [];
  const add = (coordinate: string, kind: SchemaMatch['kind'], name: string, type: string, description: string | null | undefined, root: boolean): void => {
    const cut = description && description.length > DESCRIPTION_CHARS ? `${description.slice(0, DESCRIPTION_CHARS)}…` : description;
    found.push({ coordinate, kind, type, ...(cut ? { description: cut.replace(/\s+/g, ' ') } : {}), name: name.toLowerCase(), text: (description ?? '').toLowerCase(), root });
  };
  for (const type of visibleTypes(schema)) {
    add(type.name, 'type', type.name, String(typeJson(type)['kind']), type.description, false);
    const fields = fieldsOf(type);
    for (const field of Object.values(fields ?? {})) {
      add(`${type.name}.${field.name}`, isInputObjectType(type) ? 'inputField' : 'field', field.name, String(field.type), field.description, roots.has(type.name));
    }
    if (isEnumType(type)) for (const value of type.getValues()) add(`${type.name}.${value.name}`, 'enumValue', value.name, type.name, value.description, false);
  }
  return found;
}

const cache = new WeakMap<GraphQLSchema, Candidate[]>();

/**
 * Types, fields and enum values holding every word (in their name or description), best first:
 * a word in the name counts more than one in the description, and root fields (where queries
 * start) come before others.
 */
export function searchSchema(schema: GraphQLSchema, words: string, first: number): { totalCount: number; matches: SchemaMatch[] } {
  let all = cache.get(schema);
  if (!all) cache.set(schema, (all = candidates(schema)));
  const terms = words.toLowerCase().split(/[^a-z0-9_]+/).filter((t) => t !== '');
  if (terms.length === 0) return { totalCount: 0, matches: [] };
  const scored: Array<{ candidate: Candidate; score: number }> = [];
  for (const candidate of all) {
    let score = 0;
    for (const term of terms) {
      const inName = candidate.name.includes(term) || candidate.coordinate.toLowerCase().includes(term);
      const inText = candidate.text.includes(term);
      if (!inName && !inText) {
        score = -1;
        break;
      }
      score += (inName ? 3 : 0) + (inText ? 1 : 0);
    }
    if (score < 0) continue;
    scored.push({ candidate, score: score + (candidate.root ? 2 : 0) + (candidate.name === terms.join('') ? 2 : 0) });
  }
  scored.sort((a, b) => b.score - a.score || a.candidate.coordinate.length - b.candidate.coordinate.length || a.candidate.coordinate.localeCompare(b.candidate.coordinate));
  const matches = scored.slice(0, first).map(({ candidate }) => ({
    coordinate: candidate.coordinate,
    kind: candidate.kind,
    type: candidate.type,
    ...(candidate.description ? { description: candidate.description } : {}),
  }));
  return { totalCount: scored.length, matches };
}
