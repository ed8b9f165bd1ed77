/**
 * The public schema as clients see it, printed from the executable schema (types, fields and
 * arguments sorted by name, so the file changes only when the schema does). `npm run
 * schema:snapshot` writes it to schema.graphql at the repository root; `npm test` compares the
 * executable schema with that file (test/unit/schema-evolution.test.ts).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { lexicographicSortSchema, printSchema, type GraphQLSchema } from 'graphql';
import { buildSchema } from '../src/server/schema';
import { projectRoot } from '../src/server/project-root';

export const SNAPSHOT_FILE = 'schema.graphql';

const HEADER = [
  '# The public schema, printed from the executable schema by `npm run schema:snapshot`: do not edit.',
  '# `npm test` fails when the schema and this file differ (test/unit/schema-evolution.test.ts).',
].join('\n');

export function snapshotPath(): string {
  return join(projectRoot(), SNAPSHOT_FILE);
}

/** The SDL a client sees: sorted, with every description. */
export function printPublicSchema(schema: GraphQLSchema = buildSchema()): string {
  return `${HEADER}\n\n${printSchema(lexicographicSortSchema(schema))}\n`;
}

if (require.main === module) {
  writeFileSync(snapshotPath(), printPublicSchema());
  process.stdout.write(`wrote ${SNAPSHOT_FILE}\n`);
}
