/**
 * A `@stream`ed connection (src/resolvers/stream.ts): its items are the first page's, then each
 * later page's as the executor asks; every item counts on the operation's nodes, a crossed budget
 * or a client gone stops the pages without another fetch.
 */
import { Cancellation } from '../../src/core/cancellation';
import { BudgetExceededError } from '../../src/errors/codes';
import { OperationBudget } from '../../src/limits/budget';
import { DEFAULT_LIMITS } from '../../src/limits/limits';
import { StreamedConnection } from '../../src/resolvers/stream';
import type { PagedResult } from '../../src/upstream/paging';

/** Later pages of 2 items each, counting the fetches. */
function laterPages(pages: number): { fetched: () => number; source: AsyncGenerator<PagedResult<number>, void, undefined> } {
  let fetched = 0;
  async function* source(): AsyncGenerator<PagedResult<number>, void, undefined> {
    for (let p = 1; p <= pages; p++) {
      fetched += 1;
      yield { items: [p * 2, p * 2 + 1], totalCount: 2 + pages * 2 };
    }
  }
  return { fetched: () => fetched, source: source() };
}

function connection(pages: number, nodesLimit = DEFAULT_LIMITS.budget.nodes) {
  const cancellation = new Cancellation();
  const budget = new OperationBudget({ ...DEFAULT_LIMITS.budget, nodes: nodesLimit }, cancellation);
  const later = laterPages(pages);
  const streamed = new StreamedConnection([0, 1], 2 + pages * 2, { offset: 0, limit: 100 }, later.source, { budget, cancellation, inParts: true });
  return { streamed, budget, cancellation, fetched: later.fetched };
}

test('the first page, then each later page, every item counted on the budget; totals from the first page', async () => {
  const { streamed, budget, fetched } = connection(2);
  const items: number[] = [];
  for await (const item of streamed.items()) items.push(item);
  expect(items).toEqual([0, 1, 2, 3, 4, 5]);
  expect(fetched()).toBe(2);
  expect(budget.usage.nodes).toBe(6);
  expect(streamed.totalCount).toBe(6);
  expect(streamed.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: false });
});

test('a client gone after the first page: no later page is fetched', async () => {
  const { streamed, cancellation, fetched } = connection(3);
  const items: number[] = [];
  for await (const item of streamed.items()) {
    items.push(item);
    if (items.length === 2) cancellation.abort();
  }
  expect(items).toEqual([0, 1]);
  expect(fetched()).toBe(0);
});

test('a page that crosses the nodes budget ends the list with its error; no page after it is fetched', async () => {
  const { streamed, fetched } = connection(3, 3);
  const items: number[] = [];
  await expect(
    (async () => {
      for await (const item of streamed.items()) items.push(item);
    })(),
  ).rejects.toBeInstanceOf(BudgetExceededError);
  expect(items).toEqual([0, 1]);
  expect(fetched()).toBe(1);
});
