/**
 * Event search through the gateway against the sandbox (`demo` seed): top talkers checked against
 * sums computed here from the seeded documents (read raw from the search service, no aggregation),
 * alerts paged without overlap, the usage series, network events over the rest/v1 proxy, the
 * caller check before any search, time-window validation, and no search credentials anywhere.
 */
import { request } from 'node:http';
import { ADMIN_IDENTITY_ID } from '../../../src/sandbox';
import { dataAt, expectErrorAt, expectNoErrors, startStack, type GqlResult, type Stack } from '../../helpers/stack';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ seed: 'demo' });
});
afterAll(() => stack.close());

type Obj = Record<string, unknown>;

/** A raw search of the sandbox's search service (GET with a body, basic credentials). */
function rawSearch(index: string, body: unknown): Promise<Obj> {
  const url = new URL(`${stack.sandbox.searchUrl}/${index}/_search`);
  const payload = JSON.stringify(body);
  const { username, password } = stack.sandbox.searchCredentials;
  const headers = { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload), Authorization: `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}` };
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'GET', headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve(JSON.parse(text) as Obj));
    });
    req.on('error', reject);
    req.end(payload);
  });
}

/** Every document of an index pattern in [from, to] (plain hits, no aggregation). */
async function documents(index: string, from: string, to: string): Promise<Obj[]> {
  const answer = await rawSearch(index, { size: 10_000, query: { range: { '@timestamp': { gte: from, lte: to } } } });
  const hits = (answer['hits'] as { hits: Array<{ _source: Obj }> }).hits;
  return hits.map((h) => h._source);
}

/** A field of a flat or nested `_source` (`zfw.usage.circuit.tx`). */
function field(source: Obj, path: string): unknown {
  if (path in source) return source[path];
  let value: unknown = source;
  for (const key of path.split('.')) value = typeof value === 'object' && value !== null ? (value as Obj)[key] : undefined;
  return value;
}

const window = () => {
  const to = new Date();
  const from = new Date(to.getTime() - 24 * 3600_000);
  return { from: from.toISOString(), to: to.toISOString() };
};

describe('topTalkers', () => {
  it('matches sums computed from the seeded documents', async () => {
    const { from, to } = window();
    const docs = await documents('zfw.events*', from, to);
    expect(docs.length).toBeGreaterThan(50);
    const tx = new Map<string, number>();
    const rx = new Map<string, Map<string, number>>();
    for (const d of docs) {
      const source = String(field(d, 'zfw.source_id'));
      tx.set(source, (tx.get(source) ?? 0) + Number(field(d, 'zfw.usage.circuit.tx') ?? 0));
      const byAddress = rx.get(source) ?? new Map<string, number>();
      const address = String(field(d, 'zfw.saddr'));
      byAddress.set(address, (byAddress.get(address) ?? 0) + Number(field(d, 'zfw.usage.circuit.rx') ?? 0));
      rx.set(source, byAddress);
    }
    const expected = [...tx].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 3);

    const r = await stack.gql('query($from: String!, $to: String!) { topTalkers(from: $from, to: $to, limit: 3, addressLimit: 2) { from to otherSourceDocuments sources { sourceId transmitted documents addresses { address received documents } } } }', { from, to });
    expectNoErrors(r);
    const sources = dataAt(r, ['topTalkers', 'sources']) as Obj[];
    expect(sources.map((s) => [s['sourceId'], s['transmitted']])).toEqual(expected);
    for (const s of sources) {
      const addresses = [...(rx.get(String(s['sourceId'])) ?? new Map<string, number>())].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 2);
      expect((s['addresses'] as Obj[]).map((a) => [a['address'], a['received']])).toEqual(addresses);
      expect(s['documents']).toBe(docs.filter((d) => field(d, 'zfw.source_id') === s['sourceId']).length);
    }
    const counted = sources.reduce((n, s) => n + Number(s['documents']), 0);
    expect(dataAt(r, ['topTalkers', 'otherSourceDocuments'])).toBe(docs.length - counted);
  });

  it('sends the top-talker aggregation with the caller\'s limits, after checking the caller upstream', async () => {
    stack.sandbox.control.resetCalls();
    // A token the gateway has not verified yet (a claim apart from the demo token): checked once with the platform first.
    const token = stack.sandbox.tokenService.sign({ sub: ADMIN_IDENTITY_ID, fresh: 'events' });
    expectNoErrors(await stack.gql('{ topTalkers(limit: 4, addressLimit: 5) { sources { sourceId } } again: topTalkers(limit: 1) { sources { sourceId } } }', undefined, { token }));
    const sent = stack.sandbox.control.requests();
    expect(sent.map((q) => `${q.method} ${q.route}`)).toEqual(['GET /identity/v1/organization', 'GET /search/{index}/_search', 'GET /search/{index}/_search']);
    const search = sent.find((q) => q.path.includes('_search'));
    const body = search?.body as Obj;
    expect(body).toMatchObject({ size: 0, query: { bool: { filter: [{ range: { '@timestamp': { format: 'strict_date_optional_time', gte: 'now-24h', lte: 'now' } } }] } } });
    expect(JSON.stringify(body['aggs'])).toContain('"zfw.source_id.keyword"');
  });

  it('refuses bad windows and limits before any call, naming the argument', async () => {
    stack.sandbox.control.resetCalls();
    for (const [args, name] of [['from: "yesterday"', 'from'], ['to: "now+"', 'to'], ['from: "now", to: "now-1d"', 'from'], ['limit: 0', 'limit'], ['addressLimit: 101', 'addressLimit']] as const) {
      const r = await stack.gql(`{ topTalkers(${args}) { from } }`);
      expect(expectErrorAt(r, ['topTalkers'], 'BAD_USER_INPUT').extensions?.['field']).toBe(name);
    }
    expect(stack.sandbox.control.calls().total).toBe(0);
    const ok = await stack.gql('{ a: topTalkers(from: "2026-11-20T00:00:00+01:00", to: "now/d") { from } b: topTalkers(from: "2026-11-20||-1d", to: "2026-11-21T00:00:00.5Z") { from } }');
    expectNoErrors(ok);
  });
});

describe('alerts', () => {
  it('pages newest first without overlap or gap, and filters by severity', async () => {
    const { from, to } = window();
    const all = (await documents('svc.alert*', from, to)).map((d) => String(d['@timestamp']));
    const seen: Obj[] = [];
    let after: string | null = null;
    let total = -1;
    for (let page = 0; page < 100; page += 1) {
      const r: GqlResult = await stack.gql('query($from: String!, $to: String!, $after: String) { alerts(from: $from, to: $to, first: 7, after: $after) { totalCount pageInfo { hasNextPage endCursor } nodes { id timestamp severity message logs } } }', { from, to, after });
      expectNoErrors(r);
      total = Number(dataAt(r, ['alerts', 'totalCount']));
      seen.push(...(dataAt(r, ['alerts', 'nodes']) as Obj[]));
      if (!dataAt(r, ['alerts', 'pageInfo', 'hasNextPage'])) break;
      after = String(dataAt(r, ['alerts', 'pageInfo', 'endCursor']));
    }
    expect(total).toBe(all.length);
    expect(seen).toHaveLength(all.length);
    expect(new Set(seen.map((a) => a['id'])).size).toBe(seen.length);
    const times = seen.map((a) => Date.parse(String(a['timestamp'])));
    expect([...times].sort((a, b) => b - a)).toEqual(times);

    const critical = await stack.gql('query($from: String!, $to: String!) { alerts(from: $from, to: $to, severity: ["critical"]) { totalCount nodes { severity } } }', { from, to });
    expectNoErrors(critical);
    const nodes = dataAt(critical, ['alerts', 'nodes']) as Obj[];
    expect(nodes.every((n) => n['severity'] === 'critical')).toBe(true);
    expect(dataAt(critical, ['alerts', 'totalCount'])).toBe((await documents('svc.alert*', from, to)).filter((d) => d['severity'] === 'critical').length);
  });
});

describe('usage and network events', () => {
  it('answers usage as a series, one point per interval, totals equal to the documents', async () => {
    const { from, to } = window();
    const r = await stack.gql('query($from: String!, $to: String!) { usage(from: $from, to: $to, interval: "1h") { interval points { at transmitted received documents } } }', { from, to });
    expectNoErrors(r);
    const points = dataAt(r, ['usage', 'points']) as Obj[];
    expect(points.length).toBeGreaterThanOrEqual(24);
    expect(points.length).toBeLessThanOrEqual(25);
    const docs = await documents('zfw.events*', from, to);
    expect(points.reduce((n, p) => n + Number(p['documents']), 0)).toBe(docs.length);
    expect(points.reduce((n, p) => n + Number(p['transmitted']), 0)).toBe(docs.reduce((n, d) => n + Number(field(d, 'zfw.usage.circuit.tx') ?? 0), 0));
    const tooMany = await stack.gql('{ usage(from: "now-30d", interval: "1m") { interval } }');
    expect(expectErrorAt(tooMany, ['usage'], 'BAD_USER_INPUT').extensions?.['field']).toBe('interval');
  });

  it("reads the caller's organization's network events through the rest/v1 proxy", async () => {
    stack.sandbox.control.resetCalls();
    const r = await stack.gql('{ networkEvents(from: "now-30d", first: 5) { totalCount nodes { id timestamp eventType resourceType networkId } } }');
    expectNoErrors(r);
    expect(Number(dataAt(r, ['networkEvents', 'totalCount']))).toBeGreaterThan(0);
    expect(stack.sandbox.control.requests().map((q) => `${q.method} ${q.route}`)).toEqual(['GET /identity/v1/organization', expect.stringMatching(/^POST \/rest\/v1\/elastic\/ncentityevent\//)]);
  });
});

describe('callers and credentials', () => {
  it('answers UNAUTHENTICATED without a token or with an expired one, and never searches', async () => {
    stack.sandbox.control.resetCalls();
    const none = await stack.gql('{ topTalkers { from } alerts { totalCount } }', undefined, { token: null });
    expectErrorAt(none, ['topTalkers'], 'UNAUTHENTICATED');
    expectErrorAt(none, ['alerts'], 'UNAUTHENTICATED');
    expect(stack.sandbox.control.calls().total).toBe(0);
    const expired = stack.sandbox.tokenService.sign({ sub: ADMIN_IDENTITY_ID }, -60);
    const late = await stack.gql('{ topTalkers { from } usage { interval } }', undefined, { token: expired });
    expectErrorAt(late, ['topTalkers'], 'UNAUTHENTICATED');
    expect(stack.sandbox.control.requests().filter((q) => q.path.includes('_search'))).toEqual([]);
  });

  it('never shows the search credentials in a response, even when the search service fails', async () => {
    const { username, password } = stack.sandbox.searchCredentials;
    const secrets = [username, password, Buffer.from(`${username}:${password}`).toString('base64')];
    const ok = await stack.gql('{ topTalkers { sources { sourceId } } alerts(first: 3) { nodes { message logs } } usage { points { documents } } }');
    expectNoErrors(ok);
    stack.sandbox.control.setFaults([{ method: 'GET', route: '/search/{index}/_search', status: 500, errorRate: 1 }]);
    try {
      const failed = await stack.gql('{ topTalkers { from } }');
      expectErrorAt(failed, ['topTalkers'], 'UPSTREAM_ERROR');
      for (const text of [JSON.stringify(ok.body), JSON.stringify(failed.body), stack.logs.join('\n')]) {
        for (const secret of secrets) expect(text).not.toContain(secret);
      }
    } finally {
      stack.sandbox.control.clearFaults();
    }
  });
});
