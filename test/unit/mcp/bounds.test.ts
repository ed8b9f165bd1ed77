/**
 * The MCP door's bounds on what a caller sends: search words measured and counted before
 * anything is scored, a search scoring each entry against each word at most once, argument
 * nesting walked without the call stack, names cut in messages, and each tool refusing past its
 * bound with BAD_USER_INPUT naming it.
 */
import { join } from 'node:path';
import { backgroundCaller } from '../../../src/core/caller';
import { MCP_BOUNDS, nestsDeeper, shown } from '../../../src/doors/mcp/bounds';
import { buildCatalog, readOperationFolder } from '../../../src/doors/mcp/catalog';
import type { McpRunner } from '../../../src/doors/mcp/runner';
import { SchemaIndex, schemaIndex, searchWords } from '../../../src/doors/mcp/schema-tools';
import { buildTools, type ToolCall } from '../../../src/doors/mcp/tools';
import { buildSchema } from '../../../src/server/schema';

const schema = buildSchema();
const operations = buildCatalog(schema, readOperationFolder(join(__dirname, '..', '..', '..', 'operations', 'mcp')), () => undefined);

/** Nested `depth` objects deep: `{a:{a:…{}}}`. */
function nested(depth: number): Record<string, unknown> {
  let value: Record<string, unknown> = {};
  for (let n = 1; n < depth; n += 1) value = { a: value };
  return value;
}

describe('search words', () => {
  it('takes up to the bound, distinct and lower-cased', () => {
    const words = Array.from({ length: MCP_BOUNDS.searchWords }, (_, n) => `Word${n}`);
    expect(searchWords(words.join(' '))).toEqual({ ok: true, words: words.map((w) => w.toLowerCase()) });
    expect(searchWords('Endpoint endpoint, ENDPOINT reach')).toEqual({ ok: true, words: ['endpoint', 'reach'] });
  });

  it('refuses one word past the bound, and a text past its length before splitting it, naming the bound', () => {
    const over = searchWords(Array.from({ length: MCP_BOUNDS.searchWords + 1 }, () => 'a').join(' '));
    expect(over).toEqual({ ok: false, message: expect.stringContaining(`at most ${MCP_BOUNDS.searchWords}`) });
    const long = searchWords('a '.repeat(512 * 1024));
    expect(long).toEqual({ ok: false, message: expect.stringContaining(`at most ${MCP_BOUNDS.searchChars}`) });
  });
});

describe('the schema index', () => {
  it('is built once per schema', () => {
    expect(schemaIndex(schema)).toBe(schemaIndex(schema));
  });

  it('finds entries holding every word, root fields first, and an exact name above a partial one', () => {
    const index = new SchemaIndex(schema);
    const found = index.search(['networks'], 5);
    expect(found.matches[0]?.coordinate).toBe('Query.networks');
    const both = index.search(['network', 'endpoint'], 100);
    expect(both.totalCount).toBeGreaterThan(0);
    expect(both.matches.length).toBe(Math.min(100, both.totalCount));
    expect(index.search(['no_such_word_anywhere'], 5)).toEqual({ totalCount: 0, matches: [] });
  });

  it('finds exactly the entries holding every word, with the most words allowed', () => {
    const index = new SchemaIndex(schema);
    const entry = index.entries.find((e) => e.coordinate === 'Query.networks');
    const words = [...new Set(entry?.text.split(/[^a-z0-9_]+/).filter((w) => w.length > 2))].slice(0, MCP_BOUNDS.searchWords);
    expect(words).toHaveLength(MCP_BOUNDS.searchWords);
    const holding = index.entries.filter((e) => words.every((w) => e.names.includes(w) || e.text.includes(w)));
    const found = index.search(words, 100);
    expect(found.totalCount).toBe(holding.length);
    const coordinates = new Set(holding.map((e) => e.coordinate));
    expect(found.matches.filter((m) => !coordinates.has(m.coordinate))).toEqual([]);
    expect(found.matches).toHaveLength(Math.min(100, holding.length));
    expect(found.matches.map((m) => m.coordinate)).toContain('Query.networks');
  });
});

describe('argument nesting', () => {
  it('counts objects and lists, up to the bound', () => {
    expect(nestsDeeper({ a: 1 }, 1)).toBe(false);
    expect(nestsDeeper({ a: [1] }, 1)).toBe(true);
    expect(nestsDeeper(nested(MCP_BOUNDS.argumentDepth), MCP_BOUNDS.argumentDepth)).toBe(false);
    expect(nestsDeeper(nested(MCP_BOUNDS.argumentDepth + 1), MCP_BOUNDS.argumentDepth)).toBe(true);
  });

  it('walks a value far deeper than the call stack without overflowing it', () => {
    const deep: unknown = JSON.parse(`${'['.repeat(200_000)}${']'.repeat(200_000)}`);
    expect(nestsDeeper(deep, MCP_BOUNDS.argumentDepth)).toBe(true);
  });
});

describe('each tool refuses past its bound (BAD_USER_INPUT, naming it), before anything runs', () => {
  let ran = 0;
  const runner: McpRunner = {
    execute: () => {
      ran += 1;
      return Promise.resolve({ data: {} });
    },
    subscribe: () => {
      throw new Error('not expected');
    },
    validate: () => {
      ran += 1;
      return { errors: [], cost: null, operationType: 'query' };
    },
    verify: () => Promise.resolve(null),
  };
  const tools = buildTools({ schema, runner, operations, mutations: 'listed', trusted: null, schemaTools: { offered: true, needToken: true }, warn: () => undefined });
  const call: ToolCall = { caller: backgroundCaller('Bearer good', null), signal: new AbortController().signal, progress: async () => undefined };
  const refusalOf = async (name: string, args: Record<string, unknown>): Promise<string> => {
    const tool = tools.get(name);
    if (!tool) throw new Error(`no ${name}`);
    const result = await tool.call(args, call);
    expect(result.isError).toBe(true);
    return JSON.stringify(result.content);
  };

  it.each([
    ['search_schema', { words: 'x '.repeat(MCP_BOUNDS.searchWords + 1) }, `at most ${MCP_BOUNDS.searchWords}`],
    ['search_schema', { words: 'x'.repeat(1024 * 1024) }, `at most ${MCP_BOUNDS.searchChars}`],
    ['introspect', { name: 'N'.repeat(MCP_BOUNDS.nameChars + 1) }, `at most ${MCP_BOUNDS.nameChars} characters`],
    ['introspect', { name: 'Query.networks.nodes' }, 'a type and one of its fields'],
    ['execute', { query: '{ gatewayInfo { version } }', variables: nested(MCP_BOUNDS.argumentDepth) }, `deeper than ${MCP_BOUNDS.argumentDepth}`],
    ['validate', { query: '{ gatewayInfo { version } }', variables: nested(MCP_BOUNDS.argumentDepth) }, `deeper than ${MCP_BOUNDS.argumentDepth}`],
    ['list_networks', { first: 1, [`x${'y'.repeat(1024 * 1024)}`]: 1 }, `has no argument x${'y'.repeat(MCP_BOUNDS.shownChars - 1)}…;`],
  ])('%s %#', async (name, args, bound) => {
    ran = 0;
    const text = await refusalOf(name, args);
    expect(text).toContain('BAD_USER_INPUT');
    expect(text).toContain(bound);
    // The refusal does not echo a megabyte back.
    expect(text.length).toBeLessThan(2000);
    expect(ran).toBe(0);
  });

  it('cuts a long name in messages', () => {
    expect(shown('abc')).toBe('abc');
    expect(shown('z'.repeat(1000))).toBe(`${'z'.repeat(MCP_BOUNDS.shownChars)}…`);
  });
});
