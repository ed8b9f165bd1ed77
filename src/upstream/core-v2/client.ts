/**
 * core/v2 client: paths from the resource table, HAL lists (`_embedded.<singular>List`, `page`)
 * through ../paging.ts (it follows `page.totalPages` and never assumes a page size), typed records;
 * creates through the one sender (../writes.ts).
 * A body that does not fit the contract → UPSTREAM_BAD_RESPONSE on the field that needed it.
 */
import type { HttpClient, UpstreamRequest, UpstreamResponse } from '../http-types';
import type { JsonObject } from '../../core/parse';
import { readBody } from '../read-body';
import { fetchWindow, type PagedResult, type PageWindow, type UpstreamPage } from '../paging';
import type { WriteAnswer, Writer } from '../writes';
import { parseHalList } from '../network/hal';
import { parseExecution, type V2ExecutionRecord } from './executions';
import { v2CreateHint, v2ItemPath, v2Resources, type V2Kind, type V2RecordFor } from './resources';

export class CoreV2Client {
  /** `writer` forgets, after a create, the reads of the kind created. */
  constructor(
    private readonly http: HttpClient,
    private readonly writer: Writer<V2Kind>,
  ) {}

  /** Async, so an id that cannot be a path segment rejects this read alone (BAD_USER_INPUT), not its loader's batch. */
  async get<K extends V2Kind>(kind: K, id: string): Promise<V2RecordFor<K>> {
    const parse = v2Resources[kind].parse;
    return this.read({ service: 'core-v2', method: 'GET', path: v2ItemPath(kind, id) }, (res) => parse(res.body));
  }

  /** A window of a kind's list; `query` holds filters (`networkId`, `name`). */
  listWindow<K extends V2Kind>(kind: K, window: PageWindow, query: Record<string, string> = {}): Promise<PagedResult<V2RecordFor<K>>> {
    const row = v2Resources[kind];
    const fetchPage = (page: number, size: number): Promise<UpstreamPage<V2RecordFor<K>>> =>
      this.read({ service: 'core-v2', method: 'GET', path: row.collection, query: { ...query, page, size } }, (res) => parseHalList(res.body, row.listKey, row.parse));
    return fetchWindow(fetchPage, window);
  }

  /** One create (POST on the collection). */
  create(kind: V2Kind, body: JsonObject): Promise<WriteAnswer> {
    return this.writer.send({ method: 'POST', path: v2Resources[kind].collection, json: body }, { hint: v2CreateHint(kind, body), touches: kind });
  }

  /** An execution at the href a create answered (on the configured origin, as every followed href). */
  execution(href: string): Promise<V2ExecutionRecord> {
    return this.read({ service: 'core-v2', method: 'GET', path: href }, (res) => parseExecution(res.body));
  }

  private read<T>(request: UpstreamRequest, parse: (res: UpstreamResponse) => T): Promise<T> {
    return readBody(this.http, request, 'core/v2', parse);
  }
}
