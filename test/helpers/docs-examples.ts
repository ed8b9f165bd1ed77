/**
 * The GraphQL examples of the documentation (README.md and docs/*.md), as a reader finds them:
 * every ```graphql block, and the GraphQL inside every `curl … /graphql` command of a ```sh block
 * (its `-d '<json>'` body). An example that shows an error says so to the test with an HTML
 * comment on the line above its fence, which a rendered page does not show:
 *
 *   <!-- expect: COST_ESTIMATED_TOO_EXPENSIVE -->
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Kind, parse, type OperationDefinitionNode } from 'graphql';
import { isObject } from '../../src/core/parse';

/** The repository's root. */
export const DOCS_ROOT = join(__dirname, '..', '..');

export interface DocExample {
  /** Where it is, e.g. `README.md:57` (the line of its fence). */
  where: string;
  file: string;
  /** The GraphQL document. */
  source: string;
  /** Variables a curl command sends with it. */
  variables?: Record<string, unknown>;
  /** `ws` for a ```graphql block (the IDE runs subscriptions over the WebSocket), `sse` for a curl to /graphql/stream, `http` for a curl to /graphql. */
  door: 'http' | 'ws' | 'sse';
  /** The error codes the example says it shows; empty: it answers without errors. */
  expected: string[];
  operation: {
    type: 'query' | 'mutation' | 'subscription';
    /** Null for an anonymous operation. */
    name: string | null;
    variables: string[];
  };
}

/** README.md, then docs/*.md by name. */
export function docFiles(): string[] {
  const docs = readdirSync(join(DOCS_ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`);
  return ['README.md', ...docs];
}

export function docExamples(files: readonly string[] = docFiles()): DocExample[] {
  return files.flatMap((file) => examplesOf(file, readFileSync(join(DOCS_ROOT, file), 'utf8')));
}

const EXPECT = /^<!--\s*expect:\s*([A-Z_,\s]+?)\s*-->$/;

function examplesOf(file: string, text: string): DocExample[] {
  const lines = text.split('\n');
  const found: DocExample[] = [];
  for (let i = 0; i < lines.length; i += 1) {
    const open = /^```(\w+)\s*$/.exec(lines[i] ?? '');
    if (!open) continue;
    const end = lines.indexOf('```', i + 1);
    if (end < 0) throw new Error(`${file}:${i + 1}: a fence that is never closed`);
    const body = lines.slice(i + 1, end).join('\n');
    const marker = EXPECT.exec((lines[i - 1] ?? '').trim());
    const expected = marker?.[1]?.split(',').map((code) => code.trim()).filter((code) => code !== '') ?? [];
    const where = `${file}:${i + 1}`;
    if (open[1] === 'graphql') found.push(example(where, file, body, undefined, 'ws', expected));
    if (open[1] === 'sh') {
      for (const request of curlRequests(body, where)) found.push(example(where, file, request.query, request.variables, request.door, expected));
    }
    i = end;
  }
  return found;
}

/** The GraphQL requests of the curl commands in a shell block (other commands are left alone). */
function curlRequests(block: string, where: string): Array<{ query: string; variables?: Record<string, unknown>; door: 'http' | 'sse' }> {
  const commands = block.replace(/\\\n/g, ' ').split('\n');
  const requests: Array<{ query: string; variables?: Record<string, unknown>; door: 'http' | 'sse' }> = [];
  for (const command of commands) {
    const url = /\bcurl\b.*?\bhttps?:\/\/[^\s'"]+?(\/graphql(?:\/stream)?)(?=[\s'"?]|$)/.exec(command);
    const body = /\s-d\s+'([^']*)'/.exec(command);
    if (!url || !body?.[1]) continue;
    const payload: unknown = JSON.parse(body[1]);
    if (!isObject(payload) || typeof payload['query'] !== 'string') throw new Error(`${where}: a curl to ${url[1] ?? ''} whose body has no query`);
    const variables = isObject(payload['variables']) ? payload['variables'] : undefined;
    requests.push({ query: payload['query'], ...(variables ? { variables } : {}), door: url[1] === '/graphql/stream' ? 'sse' : 'http' });
  }
  return requests;
}

function example(where: string, file: string, source: string, variables: Record<string, unknown> | undefined, door: DocExample['door'], expected: string[]): DocExample {
  const operations = parse(source).definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  const [operation] = operations;
  if (operation === undefined || operations.length > 1) throw new Error(`${where}: an example holds exactly one operation`);
  return {
    where,
    file,
    source,
    ...(variables ? { variables } : {}),
    door,
    expected,
    operation: {
      type: operation.operation,
      name: operation.name?.value ?? null,
      variables: (operation.variableDefinitions ?? []).map((v) => v.variable.name.value),
    },
  };
}
