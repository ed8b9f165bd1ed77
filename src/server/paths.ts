/** Where the gateway answers GraphQL: requests and the IDE at GRAPHQL_PATH, subscriptions over Server-Sent Events (graphql-sse) at STREAM_PATH. */
export const GRAPHQL_PATH = '/graphql';
export const STREAM_PATH = `${GRAPHQL_PATH}/stream`;
