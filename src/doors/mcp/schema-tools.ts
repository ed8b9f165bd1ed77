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
import { MCP_BOUNDS } from './bounds';

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
    const wanted = typeName.toLowerCase();
    const near = visibleTypes(schema)
      .map((t) => t.name)
      .filter((candidate) => candidate.toLowerCase().includes(wanted) || wanted.includes(candidate.toLowerCase()))
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

/** One schema entry as searched: its words lower-cased once, when the index is built. */
interface Entry extends SchemaMatch {
  /** The lower-cased name and coordinate, one line each (a word never holds a line break). */
  names: string;
  /** The lower-cased name alone (an exact match of the words joined scores more). */
  name: string;
  /** The lower-cased description. */
  text: string;
  root: boolean;
}

export type SearchWords = { ok: true; words: string[] } | { ok: false; message: string };

/**
 * The distinct lower-cased words of a search, or why it is refused: its text is measured before
 * it is split, its words counted before anything is scored (MCP_BOUNDS).
 */
export function searchWords(text: string): SearchWords {
  if (text.length > MCP_BOUNDS.searchChars) {
    return { ok: false, message: `words holds ${text.length} characters; search_schema takes at most ${MCP_BOUNDS.searchChars} (and ${MCP_BOUNDS.searchWords} words)` };
  }
  const words = text.toLowerCase().split(/[^a-z0-9_]+/).filter((w) => w !== '');
  if (words.length > MCP_BOUNDS.searchWords) {
    return { ok: false, message: `words holds ${words.length} words; search_schema takes at most ${MCP_BOUNDS.searchWords}: search with fewer, more telling words` };
  }
  return { ok: true, words: [...new Set(words)] };
}

/**
 * The schema's types, fields and enum values, each one's text prepared once, searched by words:
 * a search scores each entry against each word at most once (entries × words, both bounded).
 */
export class SchemaIndex {
  readonly entries: readonly Entry[];

  constructor(schema: GraphQLSchema) {
    const roots = new Set([schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()].filter((t) => t).map((t) => t?.name));
    const found: Entry[] = [];
    const add = (coordinate: string, kind: SchemaMatch['kind'], name: string, type: string, description: string | null | undefined, root: boolean): void => {
      const cut = description && description.length > DESCRIPTION_CHARS ? `${description.slice(0, DESCRIPTION_CHARS)}…` : description;
      const lower = name.toLowerCase();
      found.push({ coordinate, kind, type, ...(cut ? { description: cut.replace(/\s+/g, ' ') } : {}), names: `${lower}\n${coordinate.toLowerCase()}`, name: lower, text: (description ?? '').toLowerCase(), root });
    };
    for (const type of visibleTypes(schema)) {
      add(type.name, 'type', type.name, String(typeJson(type)['kind']), type.description, false);
      const fields = fieldsOf(type);
      for (const field of Object.values(fields ?? {})) {
        add(`${type.name}.${field.name}`, isInputObjectType(type) ? 'inputField' : 'field', field.name, String(field.type), field.description, roots.has(type.name));
      }
      if (isEnumType(type)) for (const value of type.getValues()) add(`${type.name}.${value.name}`, 'enumValue', value.name, type.name, value.description, false);
    }
    this.entries = found;
  }

  /**
   * Entries holding every word (in their name or description), best first: a word in the name
   * counts more than one in the description, and root fields (where queries start) come before
   * others. `words` as searchWords gives them (bounded, distinct).
   */
  search(words: readonly string[], first: number): { totalCount: number; matches: SchemaMatch[] } {
    if (words.length === 0) return { totalCount: 0, matches: [] };
    const joined = words.join('');
    const scored: Array<{ entry: Entry; score: number }> = [];
    for (const entry of this.entries) {
      let score = 0;
      for (const word of words) {
        const inName = entry.names.includes(word);
        const inText = entry.text.includes(word);
        if (!inName && !inText) {
          score = -1;
          break;
        }
        score += (inName ? 3 : 0) + (inText ? 1 : 0);
      }
      if (score < 0) continue;
      scored.push({ entry, score: score + (entry.root ? 2 : 0) + (entry.name === joined ? 2 : 0) });
    }
    scored.sort((a, b) => b.score - a.score || a.entry.coordinate.length - b.entry.coordinate.length || a.entry.coordinate.localeCompare(b.entry.coordinate));
    const matches = scored.slice(0, first).map(({ entry }) => ({
      coordinate: entry.coordinate,
      kind: entry.kind,
      type: entry.type,
      ...(entry.description ? { description: entry.description } : {}),
    }));
    return { totalCount: scored.length, matches };
  }
}

const indexes = new WeakMap<GraphQLSchema, SchemaIndex>();

/** The schema's index, built once per schema. */
export function schemaIndex(schema: GraphQLSchema): SchemaIndex {
  let index = indexes.get(schema);
  if (!index) indexes.set(schema, (index = new SchemaIndex(schema)));
  return index;
}
