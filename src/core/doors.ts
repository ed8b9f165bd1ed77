/** The doors an operation can arrive by, named once for the pipeline, tracing and metrics. */
export const DOOR_NAMES = ['http', 'ws', 'sse', 'mcp'] as const;

/** How an operation arrived: GraphQL over HTTP, WebSocket, Server-Sent Events, or MCP. */
export type Door = (typeof DOOR_NAMES)[number];
