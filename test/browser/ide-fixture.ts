import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { makeExecutableSchema } from '@graphql-tools/schema';
import { graphql } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import { createIdeHandler, type IdeHandlerOptions } from '../../src/server/ide';
import { isObject } from '../../src/core/parse';

/**
 * A minimal GraphQL server around the IDE handler: POST /graphql with a tiny schema and
 * graphql-transport-ws subscriptions on the same path. It lets the browser test check what the
 * page itself does (its fetcher, the headers it sends, the connection_init payload) apart from
 * the gateway. Every request's Authorization and every connection_init payload are recorded.
 */
export interface IdeFixture {
  url: string;
  /** Authorization header of each POST, in order. */
  authorizations: (string | undefined)[];
  /** connection_init payloads received over websockets. */
  connectionParams: unknown[];
  close(): Promise<void>;
}

const typeDefs = /* GraphQL */ `
  "A group of networks."
  type NetworkGroup {
    id: ID!
    "The group's name."
    name: String!
  }
  type NetworkGroupConnection {
    totalCount: Int!
    nodes: [NetworkGroup!]!
  }
  type Query {
    "Every network group the caller may read."
    networkGroups: NetworkGroupConnection!
    "The Authorization header the server received."
    whoami: String
  }
  type Subscription {
    "Counts from 1 to \`to\`, then completes."
    countdown(to: Int!): Int!
  }
`;

interface Ctx {
  authorization: string | undefined;
}

const schema = makeExecutableSchema<Ctx>({
  typeDefs,
  resolvers: {
    Query: {
      networkGroups: () => ({ totalCount: 1, nodes: [{ id: 'ng-1', name: 'fixture-group' }] }),
      whoami: (_root: unknown, _args: unknown, ctx: Ctx) => ctx.authorization ?? null,
    },
    Subscription: {
      countdown: {
        subscribe: async function* (_root: unknown, args: { to: number }) {
          for (let i = 1; i <= args.to; i++) {
            await new Promise((resolve) => setTimeout(resolve, 20));
            yield { countdown: i };
          }
        },
      },
    },
  },
});

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return Buffer.concat(chunks).toString('utf8');
}

function stringOrUndefined(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

export async function startIdeFixture(options: Omit<IdeHandlerOptions, 'graphqlPath'>): Promise<IdeFixture> {
  const graphqlPath = '/graphql';
  const ide = createIdeHandler({ ...options, graphqlPath });
  const authorizations: (string | undefined)[] = [];
  const connectionParams: unknown[] = [];

  const server: Server = createServer((req, res) => {
    if (ide(req, res)) return;
    if (req.method !== 'POST' || req.url !== graphqlPath) {
      res.writeHead(404).end();
      return;
    }
    void (async () => {
      const authorization = req.headers.authorization;
      authorizations.push(authorization);
      const body: unknown = JSON.parse(await readBody(req));
      const params = isObject(body) ? body : {};
      const variables = params['variables'];
      const result = await graphql({
        schema,
        source: stringOrUndefined(params['query']) ?? '',
        operationName: stringOrUndefined(params['operationName']) ?? null,
        variableValues: isObject(variables) ? variables : null,
        contextValue: { authorization },
      });
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(result));
    })();
  });

  const wss = new WebSocketServer({ server, path: graphqlPath });
  const wsServer = useServer(
    {
      schema,
      onConnect: (ctx) => {
        connectionParams.push(ctx.connectionParams);
      },
      context: (ctx): Ctx => ({ authorization: stringOrUndefined(ctx.connectionParams?.['authorization']) }),
    },
    wss,
  );

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${graphqlPath}`,
    authorizations,
    connectionParams,
    close: async () => {
      await wsServer.dispose();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())));
    },
  };
}
