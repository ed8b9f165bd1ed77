import { fetchAll, fetchWindow, planFirstPage, streamWindow, type PageFetcher } from '../../src/upstream/paging';

/** A fake upstream list of `total` numbers that clamps page sizes at `max` (saying so, or echoing the size asked for). */
function fakeList(total: number, max: number, opts: { withTotals?: boolean; echoSize?: boolean } = {}) {
  const calls: Array<{ page: number; size: number }> = [];
  const fetchPage: PageFetcher<number> = async (page, size) => {
    calls.push({ page, size });
    const used = Math.min(size, max);
    const items = Array.from({ length: total }, (_, i) => i).slice(page * used, page * used + used);
    const withTotals = opts.withTotals ?? true;
    return {
      items,
      page: {
        number: page,
        size: opts.echoSize ? size : used,
        totalElements: withTotals ? total : null,
        totalPages: withTotals ? Math.ceil(total / used) : null,
      },
    };
  };
  return { calls, fetchPage };
}

describe('planFirstPage', () => {
  it.each([
    [{ offset: 0, count: 100 }, { page: 0, size: 100 }],
    [{ offset: 200, count: 100 }, { page: 2, size: 100 }],
    [{ offset: 10, count: 20 }, { page: 0, size: 30 }],
    [{ offset: 40, count: 20 }, { page: 2, size: 20 }],
    [{ offset: 45, count: 10 }, { page: 4, size: 11 }],
  ])('%j -> one page %j that holds the whole window', (window, plan) => {
    expect(planFirstPage(window)).toEqual(plan);
    const start = plan.page * plan.size;
    expect(start).toBeLessThanOrEqual(window.offset);
    expect(start + plan.size).toBeGreaterThanOrEqual(window.offset + window.count);
  });
});

describe('fetchWindow', () => {
  it('notices a clamp the upstream does not report (it echoes the size asked for) and fetches the rest', async () => {
    const upstream = fakeList(2400, 200, { echoSize: true });
    const all = await fetchAll(upstream.fetchPage);
    expect(all).toEqual(Array.from({ length: 2400 }, (_, i) => i));
    expect(upstream.calls).toHaveLength(12);
    const window = await fetchWindow(fakeList(2400, 20, { echoSize: true }).fetchPage, { offset: 150, count: 100 });
    expect(window.items).toEqual(Array.from({ length: 100 }, (_, i) => 150 + i));
  });


  it('answers a window that fits one page with one call', async () => {
    const list = fakeList(1000, 1000);
    const r = await fetchWindow(list.fetchPage, { offset: 45, count: 10 });
    expect(r.items).toEqual([45, 46, 47, 48, 49, 50, 51, 52, 53, 54]);
    expect(r.totalCount).toBe(1000);
    expect(list.calls).toHaveLength(1);
  });

  it('keeps fetching with the clamped size when the upstream answers a smaller page', async () => {
    const list = fakeList(1200, 200);
    const r = await fetchWindow(list.fetchPage, { offset: 0, count: 500 });
    expect(r.items).toEqual(Array.from({ length: 500 }, (_, i) => i));
    expect(r.totalCount).toBe(1200);
    expect(list.calls).toEqual([
      { page: 0, size: 500 },
      { page: 1, size: 200 },
      { page: 2, size: 200 },
    ]);
  });

  it('stops at totalPages when the list is shorter than the window', async () => {
    const list = fakeList(250, 200);
    const r = await fetchWindow(list.fetchPage, { offset: 0, count: 1000 });
    expect(r.items).toHaveLength(250);
    expect(r.totalCount).toBe(250);
    expect(list.calls).toHaveLength(2);
  });

  it('returns an empty window past the end with one call', async () => {
    const list = fakeList(5, 200);
    const r = await fetchWindow(list.fetchPage, { offset: 100, count: 100 });
    expect(r.items).toEqual([]);
    expect(r.totalCount).toBe(5);
    expect(list.calls).toHaveLength(1);
  });

  it('treats a list without a page object as complete and slices it locally', async () => {
    let calls = 0;
    const r = await fetchWindow<number>(
      async () => {
        calls++;
        return { items: [1, 2, 3, 4, 5], page: null };
      },
      { offset: 1, count: 2 },
    );
    expect(r).toEqual({ items: [2, 3], totalCount: 5 });
    expect(calls).toBe(1);
  });

  it('does not loop when the upstream reports no totals', async () => {
    const list = fakeList(50, 20, { withTotals: false });
    const r = await fetchWindow(list.fetchPage, { offset: 0, count: Infinity });
    expect(r.items).toHaveLength(20);
    expect(list.calls).toHaveLength(1);
  });
});

describe('fetchAll', () => {
  it('follows totalPages with the size the upstream used', async () => {
    const list = fakeList(450, 200);
    expect(await fetchAll(list.fetchPage)).toEqual(Array.from({ length: 450 }, (_, i) => i));
    expect(list.calls).toEqual([
      { page: 0, size: 1000 },
      { page: 1, size: 200 },
      { page: 2, size: 200 },
    ]);
  });
});

describe('streamWindow (@stream)', () => {
  it('yields the first page before any later page is fetched, then one page per step, the same items as fetchWindow', async () => {
    const upstream = fakeList(450, 200);
    const steps = streamWindow(upstream.fetchPage, { offset: 0, count: 420 });
    const first = await steps.next();
    expect(first.done).toBe(false);
    expect(first.value).toEqual({ items: Array.from({ length: 200 }, (_, i) => i), totalCount: 450 });
    expect(upstream.calls).toEqual([{ page: 0, size: 420 }]);
    const second = await steps.next();
    expect(second.value).toEqual({ items: Array.from({ length: 200 }, (_, i) => 200 + i), totalCount: 450 });
    expect(upstream.calls).toHaveLength(2);
    const third = await steps.next();
    expect(third.value).toEqual({ items: Array.from({ length: 20 }, (_, i) => 400 + i), totalCount: 450 });
    expect((await steps.next()).done).toBe(true);
    expect(upstream.calls).toEqual([
      { page: 0, size: 420 },
      { page: 1, size: 200 },
      { page: 2, size: 200 },
    ]);
    const whole = fakeList(450, 200);
    expect((await fetchWindow(whole.fetchPage, { offset: 0, count: 420 })).items).toEqual(Array.from({ length: 420 }, (_, i) => i));
    expect(whole.calls).toHaveLength(3);
  });

  it('a consumer that stops after the first page starts no further call', async () => {
    const upstream = fakeList(1000, 100);
    for await (const step of streamWindow(upstream.fetchPage, { offset: 0, count: 1000 })) {
      expect(step.items).toHaveLength(100);
      break;
    }
    expect(upstream.calls).toHaveLength(1);
  });

  it('a window starting past the clamped first page stitches in order (offset 150 of pages of 20)', async () => {
    const upstream = fakeList(2400, 20, { echoSize: true });
    const items: number[] = [];
    for await (const step of streamWindow(upstream.fetchPage, { offset: 150, count: 100 })) items.push(...step.items);
    expect(items).toEqual(Array.from({ length: 100 }, (_, i) => 150 + i));
  });

  it('a window one page holds is one step and one call', async () => {
    const upstream = fakeList(50, 200);
    const steps: number[][] = [];
    for await (const step of streamWindow(upstream.fetchPage, { offset: 10, count: 20 })) steps.push(step.items);
    expect(steps).toEqual([Array.from({ length: 20 }, (_, i) => 10 + i)]);
    expect(upstream.calls).toHaveLength(1);
  });
});
