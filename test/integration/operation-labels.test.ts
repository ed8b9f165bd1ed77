/**
 * Metric labels come from a bounded set: `netgraph_graphql_operations_total{operation}` takes the
 * names of the trusted documents and of the gateway's own clients; 300 random names sent by callers
 * make no label of their own, they all count as `other`.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { sha256 } from '../../src/persisted/trusted-documents';
import { OWN_OPERATION_NAMES } from '../../src/pipeline/operation-metrics';
import { expectNoErrors, startStack, type Stack } from '../helpers/stack';

const TRUSTED = 'query Trusted { gatewayInfo { sandbox } }';

let stack: Stack;
beforeAll(async () => {
  const path = join(mkdtempSync(join(tmpdir(), 'netgraph-labels-')), 'manifest.json');
  writeFileSync(path, JSON.stringify({ [sha256(TRUSTED)]: TRUSTED }));
  // A manifest, not the only documents that may run: callers can still send any name.
  stack = await startStack({ config: { documents: { trustedDocuments: path, trustedDocumentsOnly: false } } });
});
afterAll(() => stack.close());

async function operationLabels(): Promise<Map<string, number>> {
  const text = await (await fetch(`${stack.origin}/metrics`)).text();
  const labels = new Map<string, number>();
  for (const m of text.matchAll(/^netgraph_graphql_operations_total\{transport="http",operation="([^"]*)",outcome="ok"\} (\d+)$/gm)) labels.set(m[1] ?? '', Number(m[2]));
  return labels;
}

it('300 random operation names make no new label: they count as `other`', async () => {
  const names = Array.from({ length: 300 }, () => `Op_${randomBytes(6).toString('hex')}`);
  for (const name of names) expectNoErrors(await stack.gql(`query ${name} { gatewayInfo { sandbox } }`));
  const labels = await operationLabels();
  expect([...labels.keys()]).toEqual(['other']);
  expect(labels.get('other')).toBe(300);
});

it("keeps the trusted documents' names and the gateway's own clients' names, and `-` for anonymous operations", async () => {
  expectNoErrors(await stack.gql(TRUSTED));
  expectNoErrors(await stack.gql('query networkMap { gatewayInfo { sandbox } }'));
  expectNoErrors(await stack.gql('{ gatewayInfo { sandbox } }'));
  const labels = await operationLabels();
  expect([...labels.keys()].sort()).toEqual(['-', 'Trusted', 'networkMap', 'other']);
});

it("knows every operation the gateway's own clients send (the map page and the benchmark)", () => {
  const root = join(__dirname, '..', '..');
  const sources = [
    ...readdirSync(join(root, 'web', 'map')).filter((f) => f.endsWith('.ts')).map((f) => join(root, 'web', 'map', f)),
    ...readdirSync(join(root, 'bench', 'queries')).filter((f) => f.endsWith('.graphql')).map((f) => join(root, 'bench', 'queries', f)),
  ];
  const sent = new Set(sources.flatMap((file) => [...readFileSync(file, 'utf8').matchAll(/\b(?:query|mutation|subscription)\s+([A-Za-z_]\w*)\s*[({]/g)].map((m) => m[1] ?? '')));
  expect(sent.size).toBeGreaterThan(5);
  expect([...sent].filter((name) => !OWN_OPERATION_NAMES.includes(name))).toEqual([]);
});
