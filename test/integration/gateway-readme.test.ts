/** The queries the top-level README tells a new user to paste work as printed. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expectNoErrors, startStack, type Stack } from '../helpers/stack';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ seed: 'demo' });
});
afterAll(() => stack.close());

const readme = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');
const queries = [...readme.matchAll(/```graphql\n([\s\S]*?)```/g)].map((m) => m[1] ?? '');

it('the README has example queries', () => {
  expect(queries.length).toBeGreaterThanOrEqual(2);
});

it.each(queries.map((q, i) => [i + 1, q] as const))('README query %i runs without errors against the demo sandbox', async (_n, query) => {
  const data = expectNoErrors(await stack.gql(query));
  expect(Object.keys(data).length).toBeGreaterThan(0);
});
