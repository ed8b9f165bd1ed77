/**
 * The GraphQL IDE in a real browser: Debian's Chromium, headless, driven by playwright-core.
 * Part 1 runs against the gateway and the sandbox upstream as `npm start` serves them; part 2
 * against a small fixture server that records what the page sends (headers, the websocket
 * connection_init payload), for what the gateway cannot show from outside.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ManualClock } from '../../src/sandbox';
import { isObject } from '../../src/core/parse';
import { startStack, expectNoErrors, type Stack } from '../helpers/stack';
import { sandboxRest } from '../helpers/subscriptions';
import { waitUntil } from '../helpers/wait';
import { browserTestsEnabled, launchChromium, watchPage, type PageWatch } from './chromium';
import {
  activeToolTab,
  editorValue,
  openDocs,
  openExplorer,
  openIde,
  QUERY_EDITOR,
  readResultUntil,
  runAndReadResult,
  setEditorValue,
  tickExplorerFields,
  TOOL_EDITOR,
  waitForStoredTabs,
} from './graphiql-page';
import { startIdeFixture, type IdeFixture } from './ide-fixture';

const describeBrowser = browserTestsEnabled() ? describe : describe.skip;
jest.setTimeout(60000);

const NETWORK_GROUPS = '{ networkGroups { totalCount nodes { id name } } }';

describeBrowser('GraphQL IDE in Chromium', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  describe('served by the gateway over the sandbox', () => {
    let stack: Stack;
    let context: BrowserContext;
    let page: Page;
    let watch: PageWatch;
    // The sandbox's asynchronous changes move only when the test says so.
    const clock = new ManualClock(1000);

    beforeAll(async () => {
      stack = await startStack({ seed: 'tiny', clock, config: { subscriptions: { pollIntervalMs: 50, pollMaxIntervalMs: 50 } } });
      context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      page = await context.newPage();
      watch = watchPage(page);
      await openIde(page, stack.gatewayUrl);
    });
    afterAll(async () => {
      await context?.close();
      await stack?.close();
    });

    it('opens with the headers editor holding the sandbox admin token', async () => {
      expect(await activeToolTab(page)).toBe('Headers');
      const headers: unknown = JSON.parse(await editorValue(page, TOOL_EDITOR));
      // The cost header makes every answer show its estimated and actual cost (src/limits/README.md).
      expect(headers).toEqual({ Authorization: `Bearer ${stack.tokens.admin}`, 'netgraph-cost': 'true' });
    });

    it('runs a query through the gateway to the upstream and shows the data in the response pane', async () => {
      // What the same query answers over plain HTTP with the admin token: the page must show it.
      const expected = expectNoErrors(await stack.gql(NETWORK_GROUPS));
      await setEditorValue(page, QUERY_EDITOR, NETWORK_GROUPS);
      const result = await runAndReadResult(page);
      expect(result).toMatchObject({ data: expected, extensions: { cost: { estimated: { nodes: expect.any(Number) }, actual: { upstreamCalls: expect.any(Number) } } } });
      const groups = JSON.stringify(expected);
      expect(groups).toMatch(/"name":"[^"]+"/);
    });

    it('streams a subscription over the gateway websocket, authenticated from the headers editor', async () => {
      const sent: string[] = [];
      page.on('websocket', (socket) => socket.on('framesent', (frame) => sent.push(String(frame.payload))));
      await setEditorValue(page, QUERY_EDITOR, 'subscription { heartbeat(intervalSeconds: 1) { sequence } }');
      const result = await runAndReadResult(page, (r) => JSON.stringify(r).includes('"sequence":2'));
      expect(result).toEqual({ data: { heartbeat: { sequence: 2 } } });
      await page.click('.graphiql-execute-button'); // the run button stops a running subscription

      const init = sent.map((frame): unknown => JSON.parse(frame)).find((m) => isObject(m) && m['type'] === 'connection_init');
      expect(init).toMatchObject({ payload: { authorization: `Bearer ${stack.tokens.admin}` } });
    });

    it('follows a change with resourceStatus: each event shows in the response pane, the last one terminal', async () => {
      const created = await sandboxRest(stack, 'POST', '/networks', { name: 'ide-watch' });
      const id = String(created.body['id']);
      await setEditorValue(page, QUERY_EDITOR, `subscription Watch {\n  resourceStatus(kind: NETWORK, id: "${id}") { status statusName terminal }\n}`);
      const status = (name: string) => (r: unknown) => JSON.stringify(r).includes(`"statusName":"${name}"`);
      expect(await runAndReadResult(page, status('NEW'))).toEqual({ data: { resourceStatus: { status: 100, statusName: 'NEW', terminal: false } } });
      clock.advance();
      expect(await readResultUntil(page, status('PROVISIONING'))).toEqual({ data: { resourceStatus: { status: 200, statusName: 'PROVISIONING', terminal: false } } });
      clock.advance();
      expect(await readResultUntil(page, status('PROVISIONED'))).toEqual({ data: { resourceStatus: { status: 300, statusName: 'PROVISIONED', terminal: true } } });
      // Completed by the gateway: no poller is left for it.
      await waitUntil(() => stack.pollerStats().pollers === 0, 'no poller left');
    });

    it('lists the schema in the Docs explorer', async () => {
      const text = await openDocs(page);
      expect(text).toContain('Query');
      await page.locator('.graphiql-doc-explorer a', { hasText: 'Query' }).first().click();
      await page.locator('.graphiql-doc-explorer-title', { hasText: 'Query' }).waitFor();
      const fields = await page.locator('.graphiql-doc-explorer').innerText();
      expect(fields).toContain('networkGroups');
      expect(fields).toContain('NetworkGroupConnection');
    });

    it('builds a nested query in the Explorer by ticking fields, and runs it', async () => {
      await setEditorValue(page, QUERY_EDITOR, '');
      await openExplorer(page);
      await tickExplorerFields(page, ['networks', 'nodes', 'name']);
      // The Explorer wrote the query into the editor.
      const query = await editorValue(page, QUERY_EDITOR);
      expect(query.replace(/\s+/g, ' ').trim()).toBe('query MyQuery { networks { nodes { name } } }');
      // What the same text answers over plain HTTP: the page must show it.
      const expected = expectNoErrors(await stack.gql(query));
      const names = (JSON.stringify(expected).match(/"name":"[^"]+"/g) ?? []).length;
      expect(names).toBeGreaterThan(0);
      expect(await runAndReadResult(page)).toMatchObject({ data: expected });
    });

    it('shows a deferred query part by part: the network first while its AppWAN list is held, then the whole', async () => {
      const slow = '/rest/v1/networks/{networkId}/appWans';
      const networkId = stack.sandbox.restFacts().networks[0]?.id ?? '';
      const query = `query ConsolePage {\n  network(id: "${networkId}") {\n    id\n    name\n    ... @defer(label: "lists") { appWans { totalCount nodes { id name } } }\n  }\n}`;
      const whole = expectNoErrors(await stack.gql(query.replace(' @defer(label: "lists")', '')));
      const accepts: string[] = [];
      const onRequest = (request: { method(): string; url(): string; headers(): Record<string, string> }): void => {
        if (request.method() === 'POST' && request.url() === stack.gatewayUrl) accepts.push(request.headers()['accept'] ?? '');
      };
      page.on('request', onRequest);
      stack.sandbox.control.resetCalls();
      // Long enough that the first part shows well before it; the test waits for what the pane shows, not for it.
      stack.sandbox.control.setFaults([{ method: 'GET', route: slow, latencyMs: 4000 }]);
      try {
        await setEditorValue(page, QUERY_EDITOR, query);
        const network = (r: unknown): Record<string, unknown> | null => {
          const data = isObject(r) ? r['data'] : undefined;
          return isObject(data) && isObject(data['network']) ? data['network'] : null;
        };
        const first = await runAndReadResult(page, (r) => network(r) !== null);
        const slowAnswered = stack.sandbox.control.timings().some((t) => t.route === slow && t.answeredMs !== null);
        expect(slowAnswered).toBe(false);
        expect(network(first)).toEqual({ id: networkId, name: expect.any(String) });
        const last = await readResultUntil(page, (r) => network(r)?.['appWans'] !== undefined);
        expect(isObject(last) ? last['data'] : undefined).toEqual(whole);
        // GraphiQL's fetcher asked for the parts.
        expect(accepts.at(-1)).toContain('multipart/mixed');
      } finally {
        page.off('request', onRequest);
        stack.sandbox.control.clearFaults();
      }
    });

    it('sent no request off the machine and logged no browser errors (CSP violations included)', () => {
      expect(watch.external).toEqual([]);
      expect(watch.errors).toEqual([]);
    });
  });

  describe('the page against a recording server', () => {
    let fixture: IdeFixture;
    let context: BrowserContext;
    let page: Page;
    let watch: PageWatch;

    beforeAll(async () => {
      fixture = await startIdeFixture({ defaultHeaders: { Authorization: 'Bearer demo-token' } });
      context = await browser.newContext();
      page = await context.newPage();
      watch = watchPage(page);
      await openIde(page, fixture.url);
    });
    afterAll(async () => {
      await context?.close();
      await fixture?.close();
    });

    it('sends the Authorization from the headers editor with queries', async () => {
      await setEditorValue(page, TOOL_EDITOR, '{ "Authorization": "Bearer edited-token" }');
      await setEditorValue(page, QUERY_EDITOR, '{ whoami }');
      expect(await runAndReadResult(page)).toEqual({ data: { whoami: 'Bearer edited-token' } });
    });

    it('runs a subscription over graphql-transport-ws with the token in connection_init', async () => {
      await setEditorValue(page, QUERY_EDITOR, 'subscription { countdown(to: 3) }');
      const last = await runAndReadResult(page, (r) => JSON.stringify(r) === JSON.stringify({ data: { countdown: 3 } }));
      expect(last).toEqual({ data: { countdown: 3 } });
      expect(fixture.connectionParams).toHaveLength(1);
      expect(fixture.connectionParams[0]).toMatchObject({ authorization: 'Bearer edited-token' });
    });

    it('keeps no token in localStorage (tabs, history), and a reload brings the default headers back', async () => {
      await waitForStoredTabs(page, 'countdown');
      const stored: unknown = await page.evaluate('JSON.stringify(Object.assign({}, localStorage))');
      expect(typeof stored).toBe('string');
      expect(String(stored)).toContain('countdown');
      expect(String(stored)).not.toContain('edited-token');

      await openIde(page, fixture.url);
      expect(await editorValue(page, QUERY_EDITOR)).toContain('countdown');
      expect(JSON.parse(await editorValue(page, TOOL_EDITOR))).toEqual({ Authorization: 'Bearer demo-token' });

      // A history entry restored from storage brings the query back and keeps a usable token.
      await page.click('[aria-label="Show History"]');
      await page.locator('.graphiql-history-item-label', { hasText: 'whoami' }).first().click();
      expect(await editorValue(page, QUERY_EDITOR)).toBe('{ whoami }');
      expect(JSON.parse(await editorValue(page, TOOL_EDITOR))).toEqual({ Authorization: 'Bearer demo-token' });
      expect(await runAndReadResult(page)).toEqual({ data: { whoami: 'Bearer demo-token' } });
    });

    it('runs a query and a subscription pasted and run at once with their own operation (GraphiQL lags 100 ms behind edits)', async () => {
      await setEditorValue(page, QUERY_EDITOR, 'query Who { whoami }');
      expect(await runAndReadResult(page, () => true, { waitForParse: false })).toEqual({ data: { whoami: 'Bearer demo-token' } });
      const before = fixture.connectionParams.length;
      await setEditorValue(page, QUERY_EDITOR, 'subscription Count { countdown(to: 2) }');
      const last = await runAndReadResult(page, (r) => JSON.stringify(r) === JSON.stringify({ data: { countdown: 2 } }), { waitForParse: false });
      expect(last).toEqual({ data: { countdown: 2 } });
      expect(fixture.connectionParams.length).toBeGreaterThan(before);
    });

    it('sent no request off the machine and logged no browser errors', () => {
      expect(watch.external).toEqual([]);
      expect(watch.errors).toEqual([]);
    });
  });
});
