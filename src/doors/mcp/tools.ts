/**
 * The tools the door offers, one table: the curated operations (catalog.ts), each becoming a
 * tool that runs its document with the arguments as variables, and the generic tools
 * (`introspect`, `search_schema`, `validate`, `execute`). Which are offered follows the
 * configuration: mutation tools by MCP_MUTATIONS, the schema tools by INTROSPECTION, `execute` not at all when only trusted
 * documents may run, and in that mode a shipped operation only when the manifest registers it.
 * Every operation goes through the runner; the door decides nothing about GraphQL itself.
 */
import type { CallToolResult, Tool, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { Kind, type GraphQLSchema } from 'graphql';
import type { CuratedOperation } from './catalog';
import { dataSchema, variablesSchema, type JsonSchema, type ObjectSchema } from './json-schema';
import { isFinal, progressOf, type ProgressReport } from './progress';
import { dataResult, errorResult, operationResult, refusal } from './results';
import type { McpCaller, McpOperationRequest, McpResult, McpRunner } from './runner';
import { MCP_BOUNDS, nestsDeeper, shown } from './bounds';
import { introspect, schemaIndex, searchWords, type IntrospectFormat } from './schema-tools';

/** Which changes MCP clients may make (MCP_MUTATIONS). */
export type McpMutations = 'none' | 'listed' | 'all';

export interface ToolCall {
  caller: McpCaller;
  /** Aborted when the client cancels the call or goes away. */
  signal: AbortSignal;
  /** Sends a progress notification; does nothing when the client sent no progress token. */
  progress(report: ProgressReport): Promise<void>;
}

export interface ToolEntry {
  definition: Tool;
  call(args: Record<string, unknown>, call: ToolCall): Promise<CallToolResult>;
}

export interface ToolsOptions {
  schema: GraphQLSchema;
  runner: McpRunner;
  operations: readonly CuratedOperation[];
  mutations: McpMutations;
  /** The trusted-documents manifest: `only` when nothing else may run; `has` a document's text. */
  trusted: { only: boolean; has(document: string): boolean } | null;
  /**
   * `introspect` and `search_schema` read the whole schema, as introspection does: offered only when
   * introspection is on (`INTROSPECTION`), and, when `needToken` (outside the sandbox), answered
   * only to a caller whose token the platform accepts, verified as for a query (`runner.verify`).
   * @default offered, no token needed
   */
  schemaTools?: { offered: boolean; needToken: boolean };
  warn(message: string): void;
}

/** The refusal of a schema tool to a caller the platform does not accept, when the gateway needs one; null when it may answer. */
async function schemaToolRefusal(tool: string, options: ToolsOptions, call: ToolCall): Promise<CallToolResult | null> {
  if (!options.schemaTools?.needToken) return null;
  const refused = await options.runner.verify(call.caller);
  if (refused === null) return null;
  const code = typeof refused.extensions?.['code'] === 'string' ? refused.extensions['code'] : 'UNAUTHENTICATED';
  return refusal(tool, code, `${tool} reads the schema, which this gateway shows only to callers the platform accepts: ${refused.message}`);
}

/** How long a follow tool waits for the change to finish, by default and at most. */
const WAIT_SECONDS = { default: 600, max: 3600 };
/** The extra argument of follow tools (not a variable of their operation). */
const WAIT_ARGUMENT = 'waitSeconds';
const SEARCH_RESULTS = { default: 20, max: 100 };
/** The extra argument of mutation tools and `execute`: the mutation's idempotency key (not a variable). */
const KEY_ARGUMENT = 'idempotencyKey';
const KEY_PROPERTY: JsonSchema = {
  type: 'string',
  minLength: 1,
  maxLength: 255,
  description:
    'Optional. A key of your own (a UUID) for this change: calling again with the same key and the same arguments (a retry) returns the first result, marked replayed, and never changes twice. Use a new key for a new change.',
};

/** The note a replayed change's result carries, so an assistant knows nothing was sent again. */
function replayNotes(result: McpResult): string[] {
  return result.extensions?.['idempotentReplayed'] === true ? [`replayed: the result of the first call with this ${KEY_ARGUMENT}; nothing was changed again`] : [];
}

/** The request's extensions carrying the key, when one was given. */
function keyExtensions(key: unknown): { extensions?: Record<string, unknown> } {
  return key === undefined ? {} : { extensions: { idempotencyKey: key } };
}

/** Mutation root fields that only add or check (the rest may change or delete what exists). */
const ADDITIVE = /^(create|add|provision|import|verify|check|download)/;

/** After a change, which follow tool goes on from its result. */
const FOLLOW_HINTS: ReadonlyArray<{ tool: string; from(value: Record<string, unknown>): Record<string, string> | null }> = [
  { tool: 'follow_provisioning', from: (value) => (typeof value['id'] === 'string' && Array.isArray(value['steps']) ? { id: value['id'] } : null) },
  { tool: 'follow_workflow', from: (value) => (typeof value['businessKey'] === 'string' ? { businessKey: value['businessKey'] } : null) },
];

const READ_ONLY: ToolAnnotations = { readOnlyHint: true, idempotentHint: true };

function annotationsOf(operation: CuratedOperation): ToolAnnotations {
  if (operation.type !== 'mutation') return { title: operation.title, readOnlyHint: true };
  const fields = operation.operation.selectionSet.selections.flatMap((s) => (s.kind === Kind.FIELD ? [s.name.value] : []));
  return { title: operation.title, readOnlyHint: false, destructiveHint: !fields.every((f) => ADDITIVE.test(f)), idempotentHint: false };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The arguments a tool accepts, or the refusal naming one it does not, or the bound they cross. */
function checkArguments(tool: string, args: Record<string, unknown>, schema: ObjectSchema): CallToolResult | null {
  const known = new Set(Object.keys(schema.properties));
  const unknown = Object.keys(args).find((key) => !known.has(key));
  if (unknown !== undefined) return refusal(tool, 'BAD_USER_INPUT', `${tool} has no argument ${shown(unknown)}; it takes ${known.size ? [...known].join(', ') : 'none'}`);
  if (nestsDeeper(args, MCP_BOUNDS.argumentDepth)) return refusal(tool, 'BAD_USER_INPUT', `${tool}'s arguments nest deeper than ${MCP_BOUNDS.argumentDepth} objects and lists, this gateway's bound`);
  return null;
}

/** A type's name, or a type's and one of its fields' (`Query.networks`). */
const SCHEMA_NAME = /^[_A-Za-z][_0-9A-Za-z]*(\.[_A-Za-z][_0-9A-Za-z]*)?$/;

export function buildTools(options: ToolsOptions): Map<string, ToolEntry> {
  const { schema, runner } = options;
  const tools = new Map<string, ToolEntry>();

  /** Where a change's result says to go on: its follow tool and the arguments to give it. */
  function followNotes(data: Record<string, unknown> | null | undefined): string[] {
    const notes: string[] = [];
    for (const value of Object.values(data ?? {})) {
      if (!isRecord(value)) continue;
      for (const hint of FOLLOW_HINTS) {
        const args = tools.has(hint.tool) ? hint.from(value) : null;
        if (args) notes.push(`follow it with ${hint.tool} ${JSON.stringify(args)}`);
      }
    }
    return notes;
  }

  async function follow(tool: string, request: McpOperationRequest, waitSeconds: number, call: ToolCall): Promise<CallToolResult> {
    const stop = new AbortController();
    const abort = (): void => stop.abort();
    call.signal.addEventListener('abort', abort, { once: true });
    const timer = setTimeout(abort, waitSeconds * 1000);
    let last: Record<string, unknown> | null = null;
    let events = 0;
    let sent = -1;
    try {
      for await (const event of runner.subscribe(request, call.caller, stop.signal)) {
        if (event.errors && event.errors.length > 0) return errorResult(tool, event.errors, event.data ?? last);
        if (!event.data) continue;
        last = event.data;
        events += 1;
        const report = progressOf(event.data, events);
        if (report.progress > sent) {
          sent = report.progress;
          await call.progress(report);
        }
      }
    } finally {
      clearTimeout(timer);
      call.signal.removeEventListener('abort', abort);
    }
    if (last === null) return refusal(tool, 'FOLLOW_TIMEOUT', `nothing arrived within ${waitSeconds} s`);
    return dataResult(tool, last, isFinal(last) ? [] : [`still going after ${waitSeconds} s: call ${tool} again to keep following`]);
  }

  const untrusted: string[] = [];
  for (const operation of options.operations) {
    if (operation.type === 'mutation' && options.mutations === 'none') continue;
    if (options.trusted?.only && !options.trusted.has(operation.query)) {
      untrusted.push(operation.tool);
      continue;
    }
    const input = variablesSchema(schema, operation.document, operation.operation);
    const following = operation.type === 'subscription';
    // A follow tool takes how long to wait, unless its operation has a variable of that name.
    const waits = following && !(WAIT_ARGUMENT in input.properties);
    // A mutation tool takes an idempotency key, unless its operation has a variable of that name.
    const keyed = operation.type === 'mutation' && !(KEY_ARGUMENT in input.properties);
    if (keyed) input.properties[KEY_ARGUMENT] = KEY_PROPERTY;
    if (waits) {
      input.properties[WAIT_ARGUMENT] = {
        type: 'integer',
        minimum: 1,
        maximum: WAIT_SECONDS.max,
        default: WAIT_SECONDS.default,
        description: 'How long to follow before answering with the state so far (progress is reported meanwhile).',
      };
    }
    const definition: Tool = {
      name: operation.tool,
      title: operation.title,
      description: operation.description,
      inputSchema: input,
      outputSchema: dataSchema(schema, operation.document, operation.operation),
      annotations: annotationsOf(operation),
    };
    tools.set(operation.tool, {
      definition,
      async call(args, call) {
        const refused = checkArguments(operation.tool, args, input);
        if (refused) return refused;
        const { [WAIT_ARGUMENT]: wait, ...rest } = args;
        const { [KEY_ARGUMENT]: key, ...variablesOf } = args;
        const variables = waits ? rest : keyed ? variablesOf : args;
        const request: McpOperationRequest = { query: operation.query, operationName: operation.operationName, variables, ...(keyed ? keyExtensions(key) : {}) };
        if (following) return follow(operation.tool, request, waits && typeof wait === 'number' && wait >= 1 ? Math.min(wait, WAIT_SECONDS.max) : WAIT_SECONDS.default, call);
        const result = await runner.execute(request, call.caller, call.signal);
        return operationResult(operation.tool, result, operation.type === 'mutation' ? [...replayNotes(result), ...followNotes(result.data)] : []);
      },
    });
  }

  if (untrusted.length > 0) options.warn(`MCP: not offered, as only trusted documents may run and the manifest does not hold their documents: ${untrusted.join(', ')}`);
  for (const entry of genericTools(options, followNotes)) {
    if (tools.has(entry.definition.name)) options.warn(`MCP: the curated ${entry.definition.name} replaces the generic tool of that name`);
    else tools.set(entry.definition.name, entry);
  }
  return tools;
}

const requestProperties: Record<string, JsonSchema> = {
  query: { type: 'string', description: 'A GraphQL document (one operation, or several with operationName).' },
  variables: { type: 'object', description: "The operation's variables." },
  operationName: { type: 'string', description: 'Which operation of the document to run, when it holds several.' },
};

function requestOf(args: Record<string, unknown>): McpOperationRequest | null {
  const { query, variables, operationName, [KEY_ARGUMENT]: key } = args;
  if (typeof query !== 'string') return null;
  if (variables !== undefined && !isRecord(variables)) return null;
  if (operationName !== undefined && typeof operationName !== 'string') return null;
  // The key's own check (printable, at most 255) is the pipeline's, the same on every door.
  return { query, ...(variables ? { variables } : {}), ...(operationName !== undefined ? { operationName } : {}), ...keyExtensions(key) };
}

const VALIDATE_OUTPUT: ObjectSchema = {
  type: 'object',
  properties: {
    valid: { type: 'boolean' },
    operationType: { type: ['string', 'null'], enum: ['query', 'mutation', 'subscription', null] },
    errors: {
      type: 'array',
      items: { type: 'object', properties: { message: { type: 'string' }, code: { type: 'string' } }, required: ['message', 'code'] },
    },
    cost: { type: ['object', 'null'], description: 'estimated: nodes, upstreamCalls, depth, aliases; max: the maximums it is held to.' },
  },
  required: ['valid', 'operationType', 'errors', 'cost'],
};

const SEARCH_OUTPUT: ObjectSchema = {
  type: 'object',
  properties: {
    totalCount: { type: 'integer' },
    matches: {
      type: 'array',
      items: {
        type: 'object',
        properties: { coordinate: { type: 'string' }, kind: { type: 'string' }, type: { type: 'string' }, description: { type: 'string' } },
        required: ['coordinate', 'kind', 'type'],
      },
    },
  },
  required: ['totalCount', 'matches'],
};

function genericTools(options: ToolsOptions, followNotes: (data: Record<string, unknown> | null | undefined) => string[]): ToolEntry[] {
  const { schema, runner } = options;
  const entries: ToolEntry[] = [];
  const introspectInput: ObjectSchema = {
    type: 'object',
    properties: {
      name: { type: 'string', maxLength: MCP_BOUNDS.nameChars, default: 'Query', description: 'A type (`Network`) or one field of it (`Query.networks`); `Query`, `Mutation` and `Subscription` list where operations start.' },
      format: { type: 'string', enum: ['sdl', 'json'], default: 'sdl', description: 'Minified SDL, or compact JSON.' },
      descriptions: { type: 'boolean', default: true, description: "Include the schema's descriptions." },
    },
    additionalProperties: false,
  };
  if (options.schemaTools?.offered !== false) entries.push({
    definition: {
      name: 'introspect',
      title: 'Introspect',
      description: "One type of the gateway's GraphQL schema, or one field, as minified SDL or compact JSON: what to select and which arguments it takes.",
      inputSchema: introspectInput,
      annotations: { title: 'Introspect', ...READ_ONLY },
    },
    async call(args, call) {
      const name = typeof args['name'] === 'string' && args['name'] !== '' ? args['name'] : 'Query';
      const refused =
        checkArguments('introspect', args, introspectInput) ??
        (name.length > MCP_BOUNDS.nameChars || !SCHEMA_NAME.test(name)
          ? refusal('introspect', 'BAD_USER_INPUT', `name must be a type (Network) or a type and one of its fields (Query.networks), at most ${MCP_BOUNDS.nameChars} characters`)
          : null) ??
        (await schemaToolRefusal('introspect', options, call));
      if (refused) return refused;
      const format: IntrospectFormat = args['format'] === 'json' ? 'json' : 'sdl';
      const found = introspect(schema, name, format, args['descriptions'] !== false);
      if (!found.ok) return refusal('introspect', 'NOT_FOUND', found.message);
      return { content: [{ type: 'text', text: found.text }], ...(format === 'json' && found.json ? { structuredContent: found.json } : {}) };
    },
  });

  const searchInput: ObjectSchema = {
    type: 'object',
    properties: {
      words: {
        type: 'string',
        maxLength: MCP_BOUNDS.searchChars,
        description: `Words to find in type, field and enum value names and descriptions (all must match; at most ${MCP_BOUNDS.searchWords}), e.g. "endpoint reach service".`,
      },
      first: { type: 'integer', minimum: 1, maximum: SEARCH_RESULTS.max, default: SEARCH_RESULTS.default, description: 'How many matches to return, best first.' },
    },
    required: ['words'],
    additionalProperties: false,
  };
  // Built at start-up: each entry's text is prepared once, not per search.
  const index = schemaIndex(schema);
  if (options.schemaTools?.offered !== false) entries.push({
    definition: {
      name: 'search_schema',
      title: 'Search schema',
      description: 'Types, fields and enum values of the GraphQL schema whose names or descriptions hold the given words, best first (root fields, where queries start, first).',
      inputSchema: searchInput,
      outputSchema: SEARCH_OUTPUT,
      annotations: { title: 'Search schema', ...READ_ONLY },
    },
    async call(args, call) {
      // The words are measured and counted before the caller is verified or anything is scored.
      const checked = checkArguments('search_schema', args, searchInput);
      if (checked) return checked;
      if (typeof args['words'] !== 'string') return refusal('search_schema', 'BAD_USER_INPUT', 'words must be a string');
      const words = searchWords(args['words']);
      if (!words.ok) return refusal('search_schema', 'BAD_USER_INPUT', words.message);
      const refused = await schemaToolRefusal('search_schema', options, call);
      if (refused) return refused;
      const first = typeof args['first'] === 'number' ? Math.max(1, Math.min(SEARCH_RESULTS.max, Math.floor(args['first']))) : SEARCH_RESULTS.default;
      const found = index.search(words.words, first);
      const lines = found.matches.map((m) => `${m.coordinate}: ${m.type}${m.description ? ` — ${m.description}` : ''}`);
      return { structuredContent: { ...found }, content: [{ type: 'text', text: `${found.totalCount} matches${lines.length ? `\n${lines.join('\n')}` : ''}` }] };
    },
  });

  const requestInput: ObjectSchema = { type: 'object', properties: requestProperties, required: ['query'], additionalProperties: false };
  entries.push({
    definition: {
      name: 'validate',
      title: 'Validate',
      description: 'Checks a GraphQL document against the schema and the gateway’s limits, and estimates what it would cost (list items, upstream calls, depth, aliases), without running it.',
      inputSchema: requestInput,
      outputSchema: VALIDATE_OUTPUT,
      annotations: { title: 'Validate', ...READ_ONLY },
    },
    async call(args) {
      const request = requestOf(args);
      if (!request) return refusal('validate', 'BAD_USER_INPUT', 'validate takes query (a string), and optionally variables (an object) and operationName');
      const refused = checkArguments('validate', args, requestInput);
      if (refused) return refused;
      const checked = runner.validate(request);
      const errors = checked.errors.map((e) => ({ message: e.message, code: typeof e.extensions?.['code'] === 'string' ? e.extensions['code'] : 'GRAPHQL_VALIDATION_FAILED' }));
      const structured = { valid: errors.length === 0, operationType: checked.operationType, errors, cost: checked.cost };
      const said = errors.length === 0 ? `valid ${checked.operationType ?? 'operation'}` : `not valid: ${errors.map((e) => `${e.code}: ${e.message}`).join('; ')}`;
      return { structuredContent: structured, content: [{ type: 'text', text: `${said}\n${JSON.stringify({ cost: checked.cost })}` }] };
    },
  });

  if (options.trusted?.only) return entries;
  const changes = options.mutations === 'all';
  const executeInput: ObjectSchema = changes ? { ...requestInput, properties: { ...requestProperties, [KEY_ARGUMENT]: KEY_PROPERTY } } : requestInput;
  entries.push({
    definition: {
      name: 'execute',
      title: 'Execute',
      description: `Runs any GraphQL ${changes ? 'query or mutation' : 'query'} against the platform with your token, under the same limits as /graphql. Use introspect and search_schema to write it, validate to check its cost first.${changes ? '' : ' Mutations run only through the dedicated tools.'}`,
      inputSchema: executeInput,
      annotations: changes ? { title: 'Execute', readOnlyHint: false, destructiveHint: true, idempotentHint: false } : { title: 'Execute', readOnlyHint: true },
    },
    async call(args, call) {
      const request = requestOf(args);
      if (!request) return refusal('execute', 'BAD_USER_INPUT', `execute takes query (a string), and optionally variables (an object), operationName${changes ? ` and ${KEY_ARGUMENT} (a mutation's idempotency key)` : ''}`);
      const refused = checkArguments('execute', args, executeInput);
      if (refused) return refused;
      // The door's own policy needs the operation's kind; a document the pipeline refuses is run
      // all the same, so the refusal is the pipeline's, logged and counted like on every door.
      const checked = runner.validate(request);
      if (checked.errors.length === 0 && checked.operationType === 'subscription') {
        return refusal('execute', 'BAD_REQUEST', 'execute runs queries and mutations; follow a change with follow_provisioning or follow_workflow');
      }
      if (checked.errors.length === 0 && checked.operationType === 'mutation' && !changes) {
        return refusal('execute', 'FORBIDDEN', `this gateway runs mutations over MCP only through its mutation tools (MCP_MUTATIONS=${options.mutations}); nothing was sent`);
      }
      const result: McpResult = await runner.execute(request, call.caller, call.signal);
      return operationResult('execute', result, checked.operationType === 'mutation' ? [...replayNotes(result), ...followNotes(result.data)] : []);
    },
  });
  return entries;
}
