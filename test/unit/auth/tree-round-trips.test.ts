/**
 * `domains { resourceTypes { actions } }` starts the type and action lists alongside the domain
 * list (selection lookahead), so the tree costs one round trip: all three calls are sent before
 * the domain list has answered. The schema and resolvers run in-process over a fake HttpClient
 * whose domain list is held until the test releases it.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { graphql } from 'graphql';
import { makeExecutableSchema } from '@graphql-tools/schema';
import { inProcessContext } from '../../helpers/context';
import { resolvers } from '../../../src/resolvers';
import type { HttpClient, UpstreamRequest, UpstreamResponse } from '../../../src/upstream/http-types';
import { FakeAuthHttp } from './fake-auth-http';

const root = join(__dirname, '../../..');
const typeDefs = readdirSync(join(root, 'schema'))
  .filter((f) => f.endsWith('.graphql'))
  .map((f) => readFileSync(join(root, 'schema', f), 'utf8'));
const schema = makeExecutableSchema({ typeDefs, resolvers });

const audit = { createdBy: 'u1', createdAt: '2024-01-01T00:00:00.000Z', updatedAt: '2024-01-01T00:00:00.000Z' };
const domain = (id: string, code: string) => ({ id, code, name: code, ...audit });
const type = (id: string, domainId: string) => ({ id, domainId, code: id, name: id, parentId: null, root: true, depth: 0, childrenIds: [], ...audit });
const action = (id: string, resourceTypeId: string) => ({ id, resourceTypeId, code: 'read', name: 'read', standardAction: true, ...audit });

const upstream = new FakeAuthHttp({
  'GET /domains': () => [domain('d1', 'one'), domain('d2', 'two')],
  'GET /resource-types': () => [type('t1', 'd1'), type('t2', 'd2')],
  'GET /resource-actions': () => [action('a1', 't1'), action('a2', 't2')],
});

/** Holds `GET /domains` until released; everything else answers at once. */
class HeldDomains implements HttpClient {
  readonly sent: string[] = [];
  private release: () => void = () => undefined;
  private readonly gate = new Promise<void>((resolve) => (this.release = resolve));

  async send(request: UpstreamRequest): Promise<UpstreamResponse> {
    this.sent.push(`${request.method} ${request.path}`);
    if (request.path === '/domains') await this.gate;
    return upstream.send(request);
  }

  open(): void {
    this.release();
  }
}

function execute(http: HttpClient, batching: boolean) {
  const contextValue = inProcessContext(http, { batching });
  return graphql({
    schema,
    source: '{ domains { nodes { code resourceTypes { nodes { code actions { nodes { id } } } } } } }',
    contextValue,
  });
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

it('sends the type and action lists before the domain list answers, and answers the tree from them', async () => {
  const http = new HeldDomains();
  const result = execute(http, true);
  await settle();
  expect(http.sent.sort()).toEqual(['GET /domains', 'GET /resource-actions', 'GET /resource-types']);
  http.open();
  const { data, errors } = await result;
  expect(errors).toBeUndefined();
  expect(data).toEqual({
    domains: {
      nodes: [
        { code: 'one', resourceTypes: { nodes: [{ code: 't1', actions: { nodes: [{ id: 'a1' }] } }] } },
        { code: 'two', resourceTypes: { nodes: [{ code: 't2', actions: { nodes: [{ id: 'a2' }] } }] } },
      ],
    },
  });
  expect(http.sent).toHaveLength(3);
});

it('with batching off, waits for each level (the benchmark baseline)', async () => {
  const http = new HeldDomains();
  const result = execute(http, false);
  await settle();
  expect(http.sent).toEqual(['GET /domains']);
  http.open();
  expect((await result).errors).toBeUndefined();
});
