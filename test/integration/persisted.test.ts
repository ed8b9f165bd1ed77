/**
 * Automatic persisted queries (Apollo's APQ protocol) and trusted documents (only registered
 * operations run), src/persisted/.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sha256 } from '../../src/persisted/trusted-documents';
import { startStack, type Stack } from '../helpers/stack';

const QUERY = 'query Info { gatewayInfo { sandbox } }';

async function send(stack: Stack, body: Record<string, unknown>): Promise<{ status: number; json: { data?: unknown; errors?: Array<{ extensions?: Record<string, unknown> }> } }> {
  const res = await fetch(stack.gatewayUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json', authorization: `Bearer ${stack.tokens.admin}` },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as never };
}

const persisted = (query: string) => ({ persistedQuery: { version: 1, sha256Hash: sha256(query) } });

describe('automatic persisted queries', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack.close());

  it('asks for the document once, then runs it by hash alone', async () => {
    const unknown = await send(stack, { extensions: persisted(QUERY) });
    expect(unknown.json.errors?.[0]?.extensions?.['code']).toBe('PERSISTED_QUERY_NOT_FOUND');
    const registered = await send(stack, { query: QUERY, extensions: persisted(QUERY) });
    expect(registered.json).toEqual({ data: { gatewayInfo: { sandbox: true } } });
    const byHash = await send(stack, { extensions: persisted(QUERY) });
    expect(byHash.json).toEqual({ data: { gatewayInfo: { sandbox: true } } });
  });
});

describe('trusted documents', () => {
  let stack: Stack;
  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'netgraph-trusted-'));
    const path = join(dir, 'manifest.json');
    writeFileSync(path, JSON.stringify({ format: 'apollo-persisted-query-manifest', version: 1, operations: [{ id: sha256(QUERY), name: 'Info', type: 'query', body: QUERY }] }));
    stack = await startStack({ config: { documents: { trustedDocuments: path, trustedDocumentsOnly: true } } });
  });
  afterAll(() => stack.close());

  it('runs a registered operation by its hash, with no document sent', async () => {
    expect((await send(stack, { extensions: persisted(QUERY) })).json).toEqual({ data: { gatewayInfo: { sandbox: true } } });
  });

  it('runs a registered document sent in full', async () => {
    expect((await send(stack, { query: QUERY })).json).toEqual({ data: { gatewayInfo: { sandbox: true } } });
  });

  it('refuses any other document, and registering one through APQ, with zero upstream calls', async () => {
    stack.sandbox.control.resetCalls();
    const other = '{ networks { totalCount } }';
    const refused = await send(stack, { query: other });
    expect(refused.status).toBe(400);
    expect(refused.json.errors?.[0]?.extensions?.['code']).toBe('PERSISTED_QUERY_NOT_IN_LIST');
    const viaApq = await send(stack, { query: other, extensions: persisted(other) });
    expect(viaApq.json.errors?.[0]?.extensions?.['code']).toBe('PERSISTED_QUERY_NOT_IN_LIST');
    expect(stack.sandbox.control.calls().total).toBe(0);
  });
});
