/**
 * Mapping a connection window (offset + count) onto an upstream's numbered pages
 * (`page`/`size`, 0-based) with the fewest calls.
 *
 * Shared by every paginated upstream (rest/v1 HAL lists, auth/v1 Spring pages). It never assumes
 * the upstream's default or maximum page size: it asks for the size it wants, reads back what the
 * upstream actually used (`page.size`, else the item count), and when the upstream clamped the
 * size it keeps fetching with the clamped size, following `page.totalPages`.
 */

/** What one upstream page said about the whole list; null when the answer was not paginated. */
export interface PageMeta {
  number: number | null;
  size: number | null;
  totalElements: number | null;
  totalPages: number | null;
}

export interface UpstreamPage<T> {
  items: T[];
  /** Null for a bare or unpaginated list: such a list is complete. */
  page: PageMeta | null;
}

/** Fetches one upstream page (0-based number, requested size). */
export type PageFetcher<T> = (page: number, size: number) => Promise<UpstreamPage<T>>;

export interface PageWindow {
  /** Items to skip from the start of the (sorted) list. */
  offset: number;
  /** Items wanted; `Infinity` for the whole list. */
  count: number;
}

export interface PagedResult<T> {
  /** The items of the window, in upstream order. */
  items: T[];
  /** Size of the whole list as the upstream reported it (or as counted when complete). */
  totalCount: number;
}

/** Page size asked for when the whole list is wanted; the upstream may clamp it (we follow). */
export const WHOLE_LIST_PAGE_SIZE = 1000;

/**
 * The one-call plan for a window: the smallest page size `s >= count` such that the whole window
 * lies on a single page, and that page's number. Offsets that are multiples of the count map to
 * `page = offset / count` exactly (no over-fetch); others widen the page just enough.
 */
export function planFirstPage(window: PageWindow): { page: number; size: number } {
  const { offset } = window;
  if (!Number.isFinite(window.count)) return { page: 0, size: WHOLE_LIST_PAGE_SIZE };
  const count = Math.max(1, window.count);
  for (let size = count; size <= offset + count; size++) {
    if ((offset % size) + count <= size) return { page: Math.floor(offset / size), size };
  }
  return { page: 0, size: offset + count };
}

/**
 * Fetches exactly the pages a window needs. First call per `planFirstPage`; if the upstream
 * answered with a smaller page than asked (clamping), the remaining pages are fetched with the
 * size it used, in parallel, stopping at `page.totalPages`.
 */
export async function fetchWindow<T>(fetchPage: PageFetcher<T>, window: PageWindow): Promise<PagedResult<T>> {
  const first = planFirstPage(window);
  const answer = await fetchPage(first.page, first.size);
  const end = window.offset + window.count;

  // Not paginated: the list is complete, whatever page we asked for.
  if (answer.page === null) {
    return { items: sliceWindow(answer.items, 0, window), totalCount: answer.items.length };
  }

  const used = effectiveSize(answer, first.size);
  const startIndex = (answer.page.number ?? first.page) * used;
  const totalCount = answer.page.totalElements ?? null;
  const totalPages = answer.page.totalPages ?? null;

  // The last index that exists, as far as the upstream told us; with no totals, nothing to follow.
  const lastExisting =
    totalCount !== null
      ? totalCount - 1
      : totalPages !== null
        ? totalPages * used - 1
        : startIndex + answer.items.length - 1;
  const lastWanted = Math.min(end - 1, lastExisting);
  const missing = neededPages(window.offset, lastWanted, used, startIndex, answer.items.length);
  const pages = totalPages === null ? missing : missing.filter((p) => p < totalPages);

  // The usual case: the first page holds the whole window (a whole list of up to 1,000 items).
  // Its items, from the window's first up to the first one missing, without a map of them all.
  if (pages.length === 0 || used <= 0) {
    const from = window.offset - startIndex;
    const to = Math.min(lastWanted - startIndex + 1, answer.items.length);
    const items = from < 0 ? [] : answer.items.slice(from, Math.max(from, to));
    return { items, totalCount: totalCount ?? window.offset + items.length };
  }

  // Collect items by absolute index so pages of any size stitch together.
  const byIndex = new Map<number, T>();
  answer.items.forEach((item, i) => byIndex.set(startIndex + i, item));
  const more = await Promise.all(pages.map((p) => fetchPage(p, used)));
  more.forEach((extra, k) => {
    const base = (extra.page?.number ?? pages[k] ?? 0) * used;
    extra.items.forEach((item, i) => byIndex.set(base + i, item));
  });

  const items: T[] = [];
  for (let i = window.offset; i <= lastWanted; i++) {
    const item = byIndex.get(i);
    if (item === undefined) break; // the list ended early (changed between calls, or short count)
    items.push(item);
  }
  return { items, totalCount: totalCount ?? window.offset + items.length };
}

/** Convenience: every item of the list. */
export async function fetchAll<T>(fetchPage: PageFetcher<T>): Promise<T[]> {
  const { items } = await fetchWindow(fetchPage, { offset: 0, count: Infinity });
  return items;
}

function effectiveSize<T>(answer: UpstreamPage<T>, asked: number): number {
  const reported = answer.page?.size ?? null;
  const n = answer.items.length;
  if (reported !== null && reported > 0) {
    const size = Math.min(reported, asked);
    // A page shorter than its stated size while the list goes on past it: the upstream clamped
    // the size without saying so (it echoed the size asked for). Its real size is the item count.
    const total = answer.page?.totalElements ?? null;
    const start = (answer.page?.number ?? 0) * size;
    return n > 0 && n < size && total !== null && start + n < total ? n : size;
  }
  // No size reported: a full-looking page tells us the size it used.
  return n > 0 ? Math.min(n, asked) : asked;
}

/** Pages of `size` holding indexes `from`..`to` whose first wanted index the first page (`start`, `count` items) does not hold. */
function neededPages(from: number, to: number, size: number, start: number, count: number): number[] {
  if (to < from || size <= 0) return [];
  const pages: number[] = [];
  for (let p = Math.floor(from / size); p <= Math.floor(to / size); p++) {
    const pageStart = Math.max(p * size, from);
    if (pageStart < start || pageStart >= start + count) pages.push(p);
  }
  return pages;
}

function sliceWindow<T>(items: T[], startIndex: number, window: PageWindow): T[] {
  const from = window.offset - startIndex;
  return Number.isFinite(window.count) ? items.slice(from, from + window.count) : items.slice(from);
}

/**
 * The window page by page, for `@stream`: the first page as `fetchWindow` plans it, then each
 * page still needed, one at a time and only when the consumer asks for more, so the first items
 * can be sent before later pages are fetched and a consumer that stops (a client gone, a budget
 * crossed) starts no further call. Each step yields the window's items that became contiguous
 * (in upstream order) and the whole list's size. Without `@stream`, `fetchWindow` stays the path:
 * same pages, fetched in parallel.
 */
export async function* streamWindow<T>(fetchPage: PageFetcher<T>, window: PageWindow): AsyncGenerator<PagedResult<T>, void, undefined> {
  const first = planFirstPage(window);
  const answer = await fetchPage(first.page, first.size);
  if (answer.page === null) {
    yield { items: sliceWindow(answer.items, 0, window), totalCount: answer.items.length };
    return;
  }
  const used = effectiveSize(answer, first.size);
  const startIndex = (answer.page.number ?? first.page) * used;
  const totalPages = answer.page.totalPages ?? null;
  const reported = answer.page.totalElements ?? null;
  const lastExisting = reported !== null ? reported - 1 : totalPages !== null ? totalPages * used - 1 : startIndex + answer.items.length - 1;
  const lastWanted = Math.min(window.offset + window.count - 1, lastExisting);
  const missing = neededPages(window.offset, lastWanted, used, startIndex, answer.items.length);
  const pages = used <= 0 ? [] : totalPages === null ? missing : missing.filter((p) => p < totalPages);

  const byIndex = new Map<number, T>();
  answer.items.forEach((item, i) => byIndex.set(startIndex + i, item));
  let next = window.offset;
  const totalCount = (): number => reported ?? next;
  // The items from `next` on that are known, up to the last one wanted.
  const take = (): T[] => {
    const out: T[] = [];
    for (let item = byIndex.get(next); next <= lastWanted && item !== undefined; item = byIndex.get(next)) {
      out.push(item);
      byIndex.delete(next);
      next += 1;
    }
    return out;
  };

  const firstItems = take();
  yield { items: firstItems, totalCount: totalCount() };
  for (const p of pages) {
    if (next > lastWanted) return;
    const extra = await fetchPage(p, used);
    const base = (extra.page?.number ?? p) * used;
    extra.items.forEach((item, i) => byIndex.set(base + i, item));
    const items = take();
    // The list ended early (changed between calls, or a short count): nothing more to follow.
    if (items.length === 0) return;
    yield { items, totalCount: totalCount() };
  }
}
