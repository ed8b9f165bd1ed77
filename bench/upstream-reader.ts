/**
 * A small, independent reader of the sandbox's REST lists, used to learn the data the bench
 * queries should return (for correctness checks) and how many pages each list needs (for lower
 * bounds). It deliberately shares no code with the gateway's clients, so the two check each other.
 */
import { request } from 'undici';
import { asArray, isObject, type JsonObject } from '../src/core/parse';

/** Page size asked for: larger than any list the bench needs, so the answer reveals the upstream's cap. */
export const PROBE_PAGE_SIZE = 100_000;

export interface ListRead {
  items: JsonObject[];
  /** Calls this list takes at the largest page size the upstream grants. */
  pages: number;
}

export class UpstreamReader {
  constructor(
    private readonly baseUrl: string,
    private readonly token: string,
  ) {}

  async get(path: string, query: Record<string, string | number> = {}): Promise<unknown> {
    const url = new URL(this.baseUrl.replace(/\/$/, '') + path);
    for (const [k, v] of Object.entries(query)) url.searchParams.set(k, String(v));
    const res = await request(url, { headers: { authorization: `Bearer ${this.token}`, accept: 'application/json' } });
    const text = await res.body.text();
    if (res.statusCode !== 200) throw new Error(`sandbox GET ${path} answered ${res.statusCode}: ${text.slice(0, 300)}`);
    return text === '' ? null : (JSON.parse(text) as unknown);
  }

  async getObject(path: string): Promise<JsonObject> {
    const body = await this.get(path);
    if (!isObject(body)) throw new Error(`sandbox GET ${path}: expected an object`);
    return body;
  }

  /**
   * Every item of a list in any of the upstream's list forms: a bare array (auth/v1), a Spring
   * page (`content`), or HAL (`_embedded.<name>` plus `page`). Follows `totalPages`.
   */
  async list(path: string, query: Record<string, string | number> = {}): Promise<ListRead> {
    const first = readList(await this.get(path, { ...query, page: 0, size: PROBE_PAGE_SIZE }), path);
    const items = [...first.items];
    for (let p = 1; p < first.totalPages; p++) {
      items.push(...readList(await this.get(path, { ...query, page: p, size: first.size }), path).items);
    }
    return { items, pages: Math.max(1, first.totalPages) };
  }
}

interface ListPage {
  items: JsonObject[];
  totalPages: number;
  size: number;
}

export function readList(body: unknown, what: string): ListPage {
  const objects = (values: unknown[]): JsonObject[] => values.filter(isObject);
  if (Array.isArray(body)) return { items: objects(body), totalPages: 1, size: body.length };
  if (!isObject(body)) throw new Error(`${what}: not a list`);
  let items: JsonObject[];
  if (Array.isArray(body['content'])) {
    items = objects(asArray(body['content'], what));
  } else if (isObject(body['_embedded'])) {
    const arrays = Object.values(body['_embedded']).filter(Array.isArray);
    items = objects(arrays[0] ?? []);
  } else {
    items = []; // HAL omits _embedded for an empty list
  }
  const page = isObject(body['page']) ? body['page'] : body;
  const totalPages = typeof page['totalPages'] === 'number' ? page['totalPages'] : 1;
  const size = typeof page['size'] === 'number' && page['size'] > 0 ? page['size'] : Math.max(1, items.length);
  return { items, totalPages, size };
}

export function idOf(item: JsonObject, what: string): string {
  const id = item['id'];
  if (typeof id !== 'string' || id === '') throw new Error(`${what}: item without an id`);
  return id;
}

export function stringField(item: JsonObject, key: string): string | null {
  const v = item[key];
  return typeof v === 'string' && v !== '' ? v : null;
}

/** Runs `fn` over `items` with at most `limit` in flight. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let i = next++; i < items.length; i = next++) {
      const item = items[i];
      if (item !== undefined) out[i] = await fn(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
