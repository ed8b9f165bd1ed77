/** The executable schema: every SDL file under schema/ plus the merged resolvers (connections' `nodes` able to `@stream`, resolvers/stream.ts). */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { GraphQLSchema } from 'graphql';
import { makeExecutableSchema } from '@graphql-tools/schema';
import { resolvers } from '../resolvers';
import { streamableNodes } from '../resolvers/stream';
import { projectRoot } from './project-root';

export function loadTypeDefs(): string[] {
  const dir = join(projectRoot(), 'schema');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.graphql'))
    .sort()
    .map((f) => readFileSync(join(dir, f), 'utf8'));
}

export function buildSchema(): GraphQLSchema {
  return streamableNodes(makeExecutableSchema({ typeDefs: loadTypeDefs(), resolvers }));
}
