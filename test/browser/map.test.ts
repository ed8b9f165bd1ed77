/**
 * The network map page (`GET /map`) in headless Chromium against the gateway over the `demo`
 * sandbox: opened with no interaction it draws a network and opens its live channel; what it draws
 * matches the sandbox's data (read straight from its REST interface, not through the page); a click
 * shows a node's details; changes made on the page and anywhere else (an endpoint created through
 * the API, a status set to ERROR, an endpoint removed) show through `networkChanges` without a
 * reload, in place, highlighted and listed; and the three error messages (reader, expired token,
 * platform down). Nothing leaves 127.0.0.1. The screenshot (`.tmp/map.png`, and with
 * MAP_SCREENSHOT=docs `docs/map.png` for the README) must not be blank.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ManualClock } from '../../src/sandbox';
import { startStack, expectNoErrors, type Stack } from '../helpers/stack';
import { sandboxRest } from '../helpers/subscriptions';
import { browserTestsEnabled, launchChromium, watchPage, type PageWatch } from './chromium';
import { untilOnPage } from './graphiql-page';
import { distinctColours } from './png';

const describeBrowser = browserTestsEnabled() ? describe : describe.skip;
jest.setTimeout(90000);

const GREEN = '#2e9d57';
const AMBER = '#e0a526';
const RED = '#d64545';


/** Every item of a rest/v1 list, page by page (paginated lists answer at most 200 per page). */
async function list(stack: Stack, path: string): Promise<Array<Record<string, unknown>>> {
  const items: Array<Record<string, unknown>> = [];
  for (let page = 0; ; page++) {
    const { status, body } = await sandboxRest(stack, 'GET', `${path}${path.includes('?') ? '&' : '?'}page=${page}&size=200`);
    if (status !== 200) throw new Error(`GET ${path}: ${status}`);
    const embedded = body['_embedded'];
    const found: unknown = (typeof embedded === 'object' && embedded !== null ? Object.values(embedded)[0] : undefined) ?? [];
    if (Array.isArray(found)) items.push(...found.filter((i): i is Record<string, unknown> => typeof i === 'object' && i !== null));
    const pages = (body['page'] as { totalPages?: unknown } | undefined)?.totalPages;
    if (typeof pages !== 'number' || page + 1 >= pages) return items;
  }
}

/** Nodes and edges the map must draw for a network, from the sandbox's REST interface. */
async function expectedCounts(stack: Stack, networkId: string): Promise<{ nodes: number; edges: number }> {
  const base = `/networks/${networkId}`;
  const [endpoints, services, appWans, groups] = await Promise.all([
    list(stack, `${base}/endpoints`),
    list(stack, `${base}/services`),
    list(stack, `${base}/appWans`),
    list(stack, `${base}/endpointGroups`),
  ]);
  let edges = services.filter((s) => typeof s['endpointId'] === 'string').length;
  for (const a of appWans) {
    const lists = await Promise.all(['endpoints', 'services', 'endpointGroups'].map((m) => list(stack, `${base}/appWans/${String(a['id'])}/${m}`)));
    edges += lists.reduce((n, l) => n + l.length, 0);
  }
  return { nodes: endpoints.length + services.length + appWans.length + groups.length, edges };
}

async function drawn(page: Page): Promise<{ nodes: number; edges: number }> {
  await page.waitForSelector('#graph[data-ready="true"]', { timeout: 20000 });
  const nodes = Number(await page.getAttribute('#graph', 'data-nodes'));
  const edges = Number(await page.getAttribute('#graph', 'data-edges'));
  return { nodes, edges };
}

const colourOf = (id: string): string => `window.netgraphMap.nodeColour(${JSON.stringify(id)})`;

async function clickNode(page: Page, id: string): Promise<void> {
  const at = await untilOnPage(page, `window.netgraphMap.nodePosition(${JSON.stringify(id)})`, `node ${id} is drawn`);
  const { x, y } = at as { x: number; y: number };
  await page.mouse.click(x, y);
}

describeBrowser('network map page in Chromium', () => {
  let browser: Browser;
  let stack: Stack;
  let context: BrowserContext;
  let page: Page;
  let watch: PageWatch;
  const sockets: string[] = [];
  const clock = new ManualClock(1000);
  let networkId = '';
  let appWanId = '';

  beforeAll(async () => {
    browser = await launchChromium();
    stack = await startStack({ seed: 'demo', clock, config: { subscriptions: { pollIntervalMs: 50, pollMaxIntervalMs: 50, networkPollIntervalMs: 50, networkPollMaxIntervalMs: 50 } } });
    const network = stack.sandbox.restFacts().networks[0];
    if (!network?.appWanIds[0]) throw new Error('demo seed without a network with AppWANs');
    networkId = network.id;
    appWanId = network.appWanIds[0];
    context = await browser.newContext({ viewport: { width: 1400, height: 860 } });
    page = await context.newPage();
    watch = watchPage(page);
    page.on('websocket', (socket) => sockets.push(socket.url()));
    await page.goto(`${stack.origin}/map`);
    await page.waitForSelector('#network[data-loaded]', { timeout: 20000, state: 'attached' }).catch((e: unknown) => {
      throw new Error(`${String(e)}\n${watch.errors.join('\n')}\n${String(stack.logs.slice(-5))}`);
    });
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await stack?.close();
  });

  it('is served with a strict CSP, prefilled with the sandbox admin token, and lists the networks', async () => {
    const res = await fetch(`${stack.origin}/map`);
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(res.headers.get('content-security-policy')).not.toContain('unsafe');
    expect(await page.inputValue('#token')).toBe(stack.tokens.admin);
    const options = await page.$$eval('#network option', (els) => els.map((e) => e.getAttribute('value')));
    expect(options).toEqual(expect.arrayContaining(stack.sandbox.restFacts().networkIds));
  });

  it('opens on the first network with no interaction: draws it, opens its live channel, and puts it in the URL', async () => {
    const shown = await page.inputValue('#network');
    expect(shown).toBe((await page.$$eval('#network option', (els) => els.map((e) => e.getAttribute('value'))))[0]);
    expect(await drawn(page)).toEqual(await expectedCounts(stack, shown));
    await page.waitForSelector('#graph[data-live="open"]');
    expect(sockets).toEqual([`${stack.wsUrl}`]);
    expect(stack.pollerStats()).toMatchObject({ pollers: 1, subscribers: 1 });
    expect(new URL(page.url()).searchParams.get('network')).toBe(shown);
  });

  it('draws the selected network: node and edge counts match the sandbox data', async () => {
    await page.selectOption('#network', networkId);
    await page.waitForSelector('#graph[data-live="open"]');
    expect(await drawn(page)).toEqual(await expectedCounts(stack, networkId));
    expect(new URL(page.url()).searchParams.get('network')).toBe(networkId);
  });

  it('shows a node\'s details on click: fields, links, and who can reach what', async () => {
    const { body } = await sandboxRest(stack, 'GET', `/networks/${networkId}/appWans/${appWanId}`);
    await clickNode(page, appWanId);
    await page.waitForSelector('#details h2[data-kind="appWan"]');
    expect(await page.innerText('#details h2')).toBe(String(body['name']));
    expect(await page.innerText('#details dd[data-field="status"]')).toBe('PROVISIONED (300)');
    expect(await page.innerText('#reach')).toMatch(/may connect to \d+ service/);
    const services = await list(stack, `/networks/${networkId}/appWans/${appWanId}/services`);
    const links = await page.innerText('#details ul.links');
    for (const s of services) expect(links).toContain(String(s['name']));
  });

  it('saves a screenshot that is not blank', async () => {
    const png = await page.screenshot();
    const dir = join(__dirname, '..', '..', '.tmp');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'map.png'), png);
    if (process.env['MAP_SCREENSHOT'] === 'docs') writeFileSync(join(__dirname, '..', '..', 'docs', 'map.png'), png);
    expect(distinctColours(png)).toBeGreaterThan(8);
    // A blank render of the same size, for contrast: the check must tell the two apart.
    const blank = await context.newPage();
    await blank.setContent('<html><body style="background:#fff"></body></html>');
    expect(distinctColours(await blank.screenshot())).toBeLessThanOrEqual(2);
    await blank.close();
  });

  it('authorizes an endpoint into the AppWAN: its node turns UPDATING, then PROVISIONED through networkChanges, with workflow progress', async () => {
    const before = await drawn(page);
    await page.click('#authorize');
    await untilOnPage(page, `${colourOf(appWanId)} === ${JSON.stringify(AMBER)}`, 'the AppWAN node turns amber (UPDATING)');
    expect(await page.innerText('#details dd[data-field="status"]')).toBe('UPDATING (600)');
    expect(await drawn(page)).toEqual({ nodes: before.nodes, edges: before.edges + 1 });
    // The AppWanUpdate process has three steps; the page reads nothing again by itself, so only
    // the live channel can bring the change.
    for (let i = 0; i < 4; i++) clock.advance();
    await untilOnPage(page, `${colourOf(appWanId)} === ${JSON.stringify(GREEN)}`, 'the AppWAN node turns green (PROVISIONED)');
    expect(await page.innerText('#details dd[data-field="status"]')).toBe('PROVISIONED (300)');
    await page.waitForSelector('#progress[data-state="SUCCEEDED"]');
    expect(await page.innerText('#progress')).toMatch(/AppWanUpdate SUCCEEDED — 3\/3 steps/);
  });

  it('adds a service to the AppWAN: a new node, NEW then PROVISIONED through networkChanges, with workflow progress', async () => {
    const before = await drawn(page);
    await page.fill('#service-name', 'map-added');
    await page.fill('#service-ip', '10.9.9.9');
    await page.fill('#service-port', '8443');
    await page.click('#add-service');
    await untilOnPage(page, `document.querySelector('#progress')?.textContent.startsWith('Adding map-added')`, 'the workflow progress shows');
    // The new service with its two edges: AppWAN → service, service → terminating gateway.
    expect(await drawn(page)).toEqual({ nodes: before.nodes + 1, edges: before.edges + 2 });
    const services = await list(stack, `/networks/${networkId}/services`);
    const id = String(services.find((s) => s['name'] === 'map-added')?.['id']);
    expect(await page.evaluate(colourOf(id))).toBe(AMBER);
    for (let i = 0; i < 4; i++) clock.advance();
    await untilOnPage(page, `${colourOf(id)} === ${JSON.stringify(GREEN)} && ${colourOf(appWanId)} === ${JSON.stringify(GREEN)}`, 'the service and the AppWAN turn green');
    await page.waitForSelector('#progress[data-state="SUCCEEDED"]');
  });

  it('shows a change made anywhere without a reload: a new endpoint appears in place, highlighted and listed, then turns green', async () => {
    const other = await context.newPage();
    const otherWatch = watchPage(other);
    await other.goto(`${stack.origin}/map?network=${networkId}`);
    const before = await drawn(other);
    await other.waitForSelector('#graph[data-live="open"]');
    const anchor = await other.evaluate(`window.netgraphMap.nodePosition(${JSON.stringify(appWanId)})`);
    const created = expectNoErrors(
      await stack.gql('mutation($n: UUID!) { createEndpoint(networkId: $n, input: { name: "map-elsewhere", endpointType: "ZTCL" }) { id } }', { n: networkId }),
    );
    const id = String((created['createEndpoint'] as { id: unknown }).id);
    await untilOnPage(other, `${colourOf(id)} === ${JSON.stringify(AMBER)}`, 'the new endpoint appears, NEW');
    expect((await drawn(other)).nodes).toBe(before.nodes + 1);
    expect(await other.evaluate('window.netgraphMap.highlighted()')).toContain(id);
    expect(await other.innerText('#changes')).toContain('+ endpoint map-elsewhere (NEW)');
    // The layout kept its place: one new node moved nothing else.
    expect(await other.evaluate(`window.netgraphMap.nodePosition(${JSON.stringify(appWanId)})`)).toEqual(anchor);
    for (let i = 0; i < 3; i++) clock.advance();
    await untilOnPage(other, `${colourOf(id)} === ${JSON.stringify(GREEN)}`, 'the new endpoint turns green');
    expect(await other.innerText('#changes')).toMatch(/map-elsewhere: PROVISIONING → PROVISIONED|map-elsewhere: NEW → PROVISIONED/);
    expect(otherWatch.external).toEqual([]);
    expect(otherWatch.errors).toEqual([]);
    await other.close();
  });

  it('recolours a node whose status is set to ERROR on the platform, and takes away an endpoint removed through the API', async () => {
    const gatewayId = stack.sandbox.restFacts().networks[0]?.endpointIds[0] ?? '';
    expect(await page.evaluate(colourOf(gatewayId))).toBe(GREEN);
    stack.sandbox.control.setStatus({ kind: 'endpoint', id: gatewayId, status: 500 });
    await untilOnPage(page, `${colourOf(gatewayId)} === ${JSON.stringify(RED)}`, 'the gateway turns red (ERROR)');
    expect(await page.innerText('#changes')).toMatch(/→ ERROR/);
    stack.sandbox.control.setStatus({ kind: 'endpoint', id: gatewayId, status: 300 });
    await untilOnPage(page, `${colourOf(gatewayId)} === ${JSON.stringify(GREEN)}`, 'the gateway green again');

    const endpoints = await list(stack, `/networks/${networkId}/endpoints`);
    const id = String(endpoints.find((e) => e['name'] === 'map-elsewhere')?.['id']);
    const before = await drawn(page);
    expectNoErrors(await stack.gql('mutation($n: UUID!, $id: UUID!) { deleteEndpoint(networkId: $n, id: $id) { accepted } }', { n: networkId, id }));
    clock.advance();
    await untilOnPage(page, `${colourOf(id)} === null`, 'the removed endpoint goes');
    expect((await drawn(page)).nodes).toBe(before.nodes - 1);
    expect(await page.innerText('#changes')).toContain('− endpoint map-elsewhere');
  });

  it('says clearly when the token may not change things (reader)', async () => {
    await page.fill('#token', stack.tokens.reader);
    await page.dispatchEvent('#token', 'change');
    await page.waitForSelector('#network[data-loaded]');
    await page.selectOption('#network', networkId);
    await drawn(page);
    await clickNode(page, appWanId);
    await page.waitForSelector('#authorize');
    await page.click('#authorize');
    await page.waitForSelector('#message[data-problem="forbidden"]');
    expect(await page.innerText('#message')).toMatch(/may not change it/);
  });

  it('says clearly when the token has expired', async () => {
    const expired = stack.sandbox.tokenService.sign({ sub: 'x', exp: Math.floor(Date.now() / 1000) - 60 });
    await page.fill('#token', expired);
    await page.dispatchEvent('#token', 'change');
    await page.waitForSelector('#message[data-problem="unauthenticated"]');
    expect(await page.innerText('#message')).toMatch(/expired or is not valid/);
  });

  it('says clearly when the platform is down', async () => {
    // Every rest/v1 call has its connection reset: the gateway answers UPSTREAM_UNAVAILABLE.
    stack.sandbox.control.setFaults([{ route: '^/rest/v1/', reset: true }]);
    try {
      await page.fill('#token', stack.tokens.admin);
      await page.dispatchEvent('#token', 'change');
      await page.waitForSelector('#message[data-problem="unreachable"]', { timeout: 20000 });
      expect(await page.innerText('#message')).toMatch(/platform is not reachable/);
    } finally {
      stack.sandbox.control.clearFaults();
    }
  });

  it('is linked from the GraphQL IDE, and links back to it', async () => {
    const ide = await context.newPage();
    await ide.goto(stack.gatewayUrl);
    await ide.click('a.netgraph-map-link', { timeout: 20000 });
    await ide.waitForSelector('#network[data-loaded]', { state: 'attached' });
    expect(new URL(ide.url()).pathname).toBe('/map');
    expect(await ide.getAttribute('header a[href="graphql"]', 'href')).toBe('graphql');
    await ide.close();
  });

  it('sent nothing beyond 127.0.0.1 and logged no errors (CSP included)', () => {
    expect(watch.external).toEqual([]);
    // The expected failures above are answered as GraphQL errors (HTTP 200), not console errors.
    expect(watch.errors).toEqual([]);
  });
});

describeBrowser('network map page at the large size', () => {
  let browser: Browser;
  let stack: Stack;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    browser = await launchChromium();
    stack = await startStack({ seed: 'large' });
    context = await browser.newContext({ viewport: { width: 1400, height: 860 } });
    page = await context.newPage();
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await stack?.close();
  });

  it('groups endpoints by type, searches by name (opening the group that holds a match), and groups by AppWAN on request', async () => {
    const network = stack.sandbox.restFacts().networks[0];
    if (!network) throw new Error('large seed without networks');
    await page.goto(`${stack.origin}/map?network=${network.id}`);
    const grouped = await drawn(page);
    expect(await page.inputValue('#network')).toBe(network.id);
    const { nodes } = await expectedCounts(stack, network.id);
    // 400 endpoints become one node per endpoint type (at most four).
    expect(grouped.nodes).toBeLessThanOrEqual(nodes - network.endpointIds.length + 4);

    const endpoint = await sandboxRest(stack, 'GET', `/networks/${network.id}/endpoints/${network.endpointIds[100] ?? ''}`);
    const name = String(endpoint.body['name']);
    await page.fill('#search', name);
    await page.press('#search', 'Enter');
    await page.waitForSelector(`#details h2:text-is("${name}")`);
    expect((await drawn(page)).nodes).toBeGreaterThan(grouped.nodes);

    await page.fill('#search', '');
    await page.selectOption('#grouping', 'appWan');
    const byAppWan = await drawn(page);
    expect(byAppWan.nodes).toBeLessThan(nodes);
    const png = await page.screenshot();
    writeFileSync(join(__dirname, '..', '..', '.tmp', 'map-large.png'), png);
    expect(distinctColours(png)).toBeGreaterThan(8);
  });
});
