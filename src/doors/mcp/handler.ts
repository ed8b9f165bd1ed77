/**
 * `/mcp`: the Model Context Protocol over Streamable HTTP (the official SDK's server), stateless:
 * every POST gets its own SDK server and transport, bound to that request's caller, so nothing
 * (tokens, results) outlives the request or passes between callers, and any replica can answer
 * any request. The tool list is built once at start-up (it depends on configuration only). A
 * request must name the gateway by a public host and come from no foreign page (public-hosts.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { GraphQLSchema } from 'graphql';
import { Cancellation } from '../../core/cancellation';
import type { Caller, CallerFactory } from '../../core/caller';
import type { EdgeNotes, GatewayDoor } from '../door';
import { foreignRequest } from '../public-hosts';
import { shown } from './bounds';
import { buildCatalog, readOperationFolder, type OperationSource } from './catalog';
import { doorRefusalCode, refusal } from './results';
import type { McpRunner } from './runner';
import { buildTools, type McpMutations, type ToolEntry } from './tools';

export const MCP_PATH = '/mcp';

/** Largest JSON-RPC body read (a tool call carries a document and its variables). */
const MAX_BODY_BYTES = 1024 * 1024;

const INSTRUCTIONS = [
  "Tools over the netgraph GraphQL gateway: the platform's networks, endpoints, services, AppWANs, who can reach what, traffic and alerts, with the caller's own token and permissions.",
  'Start with the dedicated tools (list_networks, network_graph, …). For anything else, find types with search_schema, read them with introspect, check a document with validate, then run it with execute.',
  'Changes answer at once with an id or business key; follow_provisioning and follow_workflow follow them to the end, with progress.',
].join(' ');

export interface McpHandlerOptions {
  schema: GraphQLSchema;
  runner: McpRunner;
  /** The folder of shipped operations (`operations/mcp`): one tool per named operation. */
  operationsDir: string;
  /** The trusted-documents manifest, when configured: its operations are tools too, and with `only` nothing else runs. */
  manifest: { only: boolean; documents: readonly string[] } | null;
  mutations: McpMutations;
  /** The gateway's version, told to clients in `initialize`. */
  version: string;
  /** `PUBLIC_HOSTS`: the host names a request must name (`Host`) and come from (`Origin`); null: any. */
  publicHosts: ReadonlySet<string> | null;
  /** `introspect` and `search_schema`: offered when introspection is on; outside the sandbox, answered to callers the platform accepts only. */
  schemaTools: { offered: boolean; needToken: boolean };
  /** Where start-up notes go (operations left out and why). */
  warn?: (message: string) => void;
  /** The one way every door builds its caller (src/core/caller.ts): token, address, request id, trace context. */
  callerOf: CallerFactory;
  /**
   * Logs and counts one of the door's own refusals like the pipeline's answers: a foreign host or
   * page (403), another method (405), a request the transport refuses (its 4xx), an unknown tool,
   * bad arguments, a policy refusal. `status`: the HTTP status it was answered with, when not 200.
   */
  note?: (errors: ReadonlyArray<{ message: string; extensions: { code: string } }>, caller: Caller, status?: number) => void;
}

export type McpHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/** The MCP door: stateless, so nothing of its own to end on stop (its requests drain as any request does). Its stats: the refusals noted at its edge. */
export type McpDoor = GatewayDoor<{ refused: number }>;

/** The handler at `MCP_PATH` as a door, its edge refusals through `edge` (the pipeline's `note`). */
export function createMcpDoor(options: Omit<McpHandlerOptions, 'note'> & { edge: EdgeNotes }): McpDoor {
  const { edge, ...handlerOptions } = options;
  const request = createMcpHandler({ ...handlerOptions, note: edge.note });
  return { name: 'mcp', mount: { path: MCP_PATH, request }, stop: () => undefined, stats: () => ({ refused: edge.refused() }) };
}

export function createMcpHandler(options: McpHandlerOptions): McpHandler {
  const warn = options.warn ?? (() => undefined);
  const shipped = readOperationFolder(options.operationsDir);
  const texts = new Set(shipped.map((s) => s.text));
  const manifest: OperationSource[] = (options.manifest?.documents ?? [])
    .filter((text) => !texts.has(text))
    .map((text, index) => ({ text, origin: `the trusted documents manifest (document ${index + 1})` }));
  const registered = new Set(options.manifest?.documents ?? []);
  const tools = buildTools({
    schema: options.schema,
    runner: options.runner,
    operations: buildCatalog(options.schema, [...shipped, ...manifest], warn),
    mutations: options.mutations,
    trusted: options.manifest ? { only: options.manifest.only, has: (document) => registered.has(document) } : null,
    schemaTools: options.schemaTools,
    warn,
  });
  const definitions = [...tools.values()].map((tool) => tool.definition);

  const note = options.note ?? (() => undefined);

  return async (req, res) => {
    const gone = new Cancellation();
    const caller = options.callerOf({ authorization: req.headers.authorization, socketAddress: req.socket.remoteAddress, headers: req.headers, cancellation: gone });
    /** Answers a refusal at the door's edge, logged and counted like any other answer. */
    const refuse = (status: number, code: string, message: string, headers: Record<string, string> = {}): void => {
      note([{ message, extensions: { code } }], caller, status);
      res.writeHead(status, { ...headers, 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
    };
    // DNS rebinding: a page that took over a host name reaches the gateway as its own origin.
    const foreign = foreignRequest(req, options.publicHosts);
    if (foreign) return refuse(403, 'FORBIDDEN', foreign);
    // Stateless: no session to resume or delete, no server-initiated stream to open.
    if (req.method !== 'POST') return refuse(405, 'BAD_REQUEST', 'Method not allowed: this MCP endpoint is stateless; send JSON-RPC requests with POST.', { allow: 'POST' });
    const server = new Server({ name: 'netgraph', version: options.version }, { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS });
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: definitions }));
    server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
      const tool: ToolEntry | undefined = tools.get(request.params.name);
      // Noted as the JSON-RPC error it becomes (below).
      if (!tool) throw new McpError(ErrorCode.InvalidParams, `no tool named ${shown(request.params.name)}`);
      const token = extra._meta?.progressToken;
      let result: CallToolResult;
      try {
        result = await tool.call(request.params.arguments ?? {}, {
          caller,
          signal: extra.signal,
          async progress(report) {
            if (token === undefined || extra.signal.aborted) return;
            await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, ...report } }).catch(() => undefined);
          },
        });
      } catch (error) {
        warn(`MCP: ${tool.definition.name} failed unexpectedly: ${error instanceof Error ? error.message : String(error)}`);
        result = refusal(request.params.name, 'INTERNAL_SERVER_ERROR', 'Unexpected error.');
      }
      // The pipeline logs and counts what it answered; the door's own refusals are told here.
      const refused = doorRefusalCode(result);
      if (refused !== null) note([{ message: `${tool.definition.name}: refused by the MCP door`, extensions: { code: refused } }], caller);
      return result;
    });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, maxRequestBodySize: MAX_BODY_BYTES });
    // Every JSON-RPC error the SDK's server answers (an unknown method or tool, parameters its
    // schemas refuse, an internal error) is a refusal at this door's edge too.
    const send = transport.send.bind(transport);
    transport.send = async (message, sendOptions) => {
      if ('error' in message) note([{ message: message.error.message, extensions: { code: message.error.code === ErrorCode.InternalError ? 'INTERNAL_SERVER_ERROR' : 'BAD_REQUEST' } }], caller);
      return send(message, sendOptions);
    };
    // Answered or gone: close both, which aborts a tool still running (its subscription, its upstream calls).
    res.on('close', () => {
      gone.abort();
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res);
    // What the SDK's transport refused itself (a body too large, not JSON, no JSON-RPC, the wrong Accept or content type).
    if (res.statusCode >= 400) note([{ message: `the MCP transport refused the request (${res.statusCode})`, extensions: { code: 'BAD_REQUEST' } }], caller, res.statusCode);
  };
}
