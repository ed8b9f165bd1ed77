/**
 * The network map page: opens on a network at once (the one in `?network=`, else the first),
 * follows it live with one `networkChanges` subscription (its first event draws the map, each
 * later one moves what changed in place, highlighted and listed), shows details and runs the two
 * changes on click. Plain DOM code; the graph is Cytoscape.js with the dagre layout.
 */
import cytoscape, { type Core, type EventObject } from 'cytoscape';
import dagre from 'cytoscape-dagre';
import { ApiError, createApi, isRecord, type Api } from './api';
import { MAP_ADD_SERVICE, MAP_AUTHORIZE_ENDPOINT, MAP_CREATE_SERVICE, MAP_NETWORK_CHANGES, MAP_NETWORKS, MAP_WORKFLOW } from './documents';
import { upstreamStatusLine } from './upstream-status';
import {
  applyChanges,
  bucketOf,
  buildElements,
  effectiveGrouping,
  emptyMap,
  ENDPOINT_TYPES,
  linksOf,
  reachOf,
  search,
  statusColour,
  type ChangeNote,
  type Grouping,
  type MapData,
  type NetworkChanges,
  type NodeElement,
  type Resource,
} from './model';

cytoscape.use(dagre);

/** How long a node stays highlighted after it changed, and how many changes the list keeps. */
const HIGHLIGHT_MS = 4000;
const MAX_NOTES = 30;
/** A live channel that failed for a reason that may pass (platform or gateway unreachable) is tried again after this. */
const RESUBSCRIBE_MS = 5000;

function element<T extends HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (!found) throw new Error(`map page: #${id} is missing`);
  return found as T;
}

function h(tag: string, attrs: Record<string, string> = {}, ...children: Array<Node | string>): HTMLElement {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  for (const c of children) el.append(c);
  return el;
}

function readSettings(): { defaultToken: string; graphqlPath: string } {
  const parsed: unknown = JSON.parse(element('netgraph-map-settings').textContent ?? '{}');
  const s = isRecord(parsed) ? parsed : {};
  return {
    defaultToken: typeof s['defaultToken'] === 'string' ? s['defaultToken'] : '',
    graphqlPath: typeof s['graphqlPath'] === 'string' ? s['graphqlPath'] : '/graphql',
  };
}

const settings = readSettings();
const graphqlUrl = new URL(settings.graphqlPath, location.href).href;
const params = new URLSearchParams(location.search);

const tokenInput = element<HTMLInputElement>('token');
const networkSelect = element<HTMLSelectElement>('network');
const groupingSelect = element<HTMLSelectElement>('grouping');
const searchInput = element<HTMLInputElement>('search');
const graphEl = element<HTMLDivElement>('graph');
const details = element<HTMLElement>('details');
const messageEl = element<HTMLDivElement>('message');
const countsEl = element<HTMLSpanElement>('counts');
const changesEl = element<HTMLOListElement>('changes');

let api: Api = createApi(graphqlUrl, settings.defaultToken);
let data: MapData | null = null;
let selected: string | null = null;
const expanded = new Set<string>();
/** The network followed, its subscription's stop function, and the events it brought. */
const live: { networkId: string | null; stop: (() => void) | null; events: number; retry: number | undefined } = { networkId: null, stop: null, events: 0, retry: undefined };
const notes: Array<ChangeNote & { at: string }> = [];

const cy: Core = cytoscape({
  container: graphEl,
  wheelSensitivity: 0.3,
  minZoom: 0.05,
  maxZoom: 3,
  style: [
    { selector: 'node', style: { 'background-color': 'data(colour)', label: 'data(label)', 'font-size': 9, 'text-valign': 'bottom', 'text-margin-y': 3, width: 22, height: 22, 'border-width': 2, 'border-color': '#4a5568', color: '#1f2933' } },
    { selector: 'node[kind = "appWan"]', style: { shape: 'round-rectangle', width: 48, height: 28, 'border-color': '#3b5bdb', 'border-width': 3, 'font-weight': 'bold', 'font-size': 10 } },
    { selector: 'node[kind = "service"]', style: { shape: 'tag', 'border-color': '#7048e8' } },
    { selector: 'node[kind = "endpointGroup"]', style: { shape: 'octagon', 'border-color': '#0c8599', width: 28, height: 28 } },
    { selector: 'node[subtype = "GW"]', style: { shape: 'hexagon', width: 28, height: 26 } },
    { selector: 'node[subtype = "ZTGW"]', style: { shape: 'diamond' } },
    { selector: 'node[subtype = "VCPEGW"]', style: { shape: 'pentagon' } },
    { selector: 'node[kind = "bucket"]', style: { shape: 'barrel', width: 'mapData(count, 1, 500, 30, 90)', height: 'mapData(count, 1, 500, 24, 60)', 'border-style': 'dashed' } },
    { selector: 'edge', style: { width: 1, 'line-color': '#a0aec0', 'curve-style': 'bezier', opacity: 0.8 } },
    { selector: 'edge[relation = "service"]', style: { 'line-color': '#9775fa', 'target-arrow-shape': 'triangle', 'target-arrow-color': '#9775fa', 'arrow-scale': 0.6 } },
    { selector: 'edge[relation = "terminates"]', style: { 'line-style': 'dashed', 'line-color': '#718096' } },
    { selector: 'edge[weight > 1]', style: { width: 'mapData(weight, 1, 200, 1.5, 8)', label: 'data(weight)', 'font-size': 8 } },
    { selector: 'node.match', style: { 'border-color': '#e03131', 'border-width': 5 } },
    { selector: 'node.moved', style: { 'overlay-color': '#fab005', 'overlay-opacity': 0.45, 'overlay-padding': 9, 'border-color': '#f08c00', 'border-width': 5 } },
    { selector: 'node:selected', style: { 'border-color': '#1c7ed6', 'border-width': 5 } },
    { selector: '.faded', style: { opacity: 0.2 } },
  ],
});

function showMessage(text: string | null, problem = ''): void {
  messageEl.hidden = text === null;
  messageEl.textContent = text ?? '';
  messageEl.dataset['problem'] = problem;
}

function reportError(error: unknown, doing: string): void {
  if (error instanceof ApiError) showMessage(`${doing}: ${error.message}`, error.problem);
  else showMessage(`${doing}: ${error instanceof Error ? error.message : String(error)}`, 'other');
}

function grouping(): Grouping | 'auto' {
  const v = groupingSelect.value;
  return v === 'none' || v === 'type' || v === 'appWan' ? v : 'auto';
}

// ---- drawing ---------------------------------------------------------------------------------

function draw(): void {
  if (!data) return;
  const els = buildElements(data, effectiveGrouping(grouping(), data), expanded);
  cy.batch(() => {
    cy.elements().remove();
    cy.add([
      ...els.nodes.map((n) => ({ group: 'nodes' as const, data: { ...n } })),
      ...els.edges.map((e) => ({ group: 'edges' as const, data: { ...e } })),
    ]);
  });
  // Top to bottom along the edges: endpoints and groups → AppWANs → services → terminating
  // gateways, rows that use a wide window. dagre keeps the demo size readable and lays out a
  // grouped large network (about a hundred nodes) in well under a second.
  cy.layout({ name: 'dagre', rankDir: 'TB', nodeSep: 6, rankSep: 140, animate: false } as cytoscape.LayoutOptions).run();
  cy.fit(undefined, 20);
  graphEl.dataset['ready'] = 'true';
  showCounts();
  if (selected && cy.getElementById(selected).nonempty()) cy.getElementById(selected).select();
  applySearch();
}

function showCounts(): void {
  graphEl.dataset['nodes'] = String(cy.nodes().length);
  graphEl.dataset['edges'] = String(cy.edges().length);
  if (data) countsEl.textContent = `${data.networkName}: ${cy.nodes().length} nodes, ${cy.edges().length} edges`;
}

/**
 * Brings the drawing in line with `data` without moving what is already placed: elements that went
 * are removed, new ones are added next to what they link to (or at the end of their row), the rest
 * get their new label and colour. One changed node never lays out the whole network again.
 */
function reconcile(): void {
  if (!data) return;
  const els = buildElements(data, effectiveGrouping(grouping(), data), expanded);
  const nodeIds = new Set(els.nodes.map((n) => n.id));
  const edgeIds = new Set(els.edges.map((e) => e.id));
  cy.batch(() => {
    cy.edges().filter((e) => !edgeIds.has(e.id())).remove();
    cy.nodes().filter((n) => !nodeIds.has(n.id())).remove();
    const fresh: NodeElement[] = [];
    for (const n of els.nodes) {
      const node = cy.getElementById(n.id);
      if (node.nonempty()) node.data({ ...n });
      else fresh.push(n);
    }
    for (const n of fresh) cy.add({ group: 'nodes', data: { ...n }, position: placeFor(n, els.edges) });
    for (const e of els.edges) {
      const edge = cy.getElementById(e.id);
      if (edge.nonempty()) edge.data({ ...e });
      else cy.add({ group: 'edges', data: { ...e } });
    }
  });
  showCounts();
  if (selected !== null) refreshSelected();
}

/** Where a new node goes: beside a placed node it links to (above it when it is the link's source), else after its kind's row. */
function placeFor(n: NodeElement, edges: ReturnType<typeof buildElements>['edges']): { x: number; y: number } {
  const jitter = (): number => (Math.random() - 0.5) * 60;
  for (const e of edges) {
    const other = e.source === n.id ? e.target : e.target === n.id ? e.source : null;
    const placed = other === null ? null : cy.getElementById(other);
    if (placed && placed.nonempty()) {
      const p = placed.position();
      return { x: p.x + jitter(), y: p.y + (e.source === n.id ? -140 : 140) };
    }
  }
  const row = cy.nodes().filter((node) => node.data('kind') === n.kind);
  if (row.nonempty()) {
    const box = row.boundingBox({});
    return { x: box.x2 + 30, y: (box.y1 + box.y2) / 2 };
  }
  const box = cy.elements().boundingBox({});
  return cy.elements().nonempty() ? { x: (box.x1 + box.x2) / 2, y: box.y2 + 140 } : { x: 0, y: 0 };
}

/** The details panel of a selected resource after a change: its status line, or a note that it is gone. */
function refreshSelected(): void {
  if (selected === null || selected.startsWith('bucket:') || !data) return;
  const r = data.resources.get(selected);
  if (!r) {
    details.replaceChildren(h('p', { class: 'hint' }, 'This resource was removed.'));
    selected = null;
    return;
  }
  // Only the status line: rebuilding the panel would wipe what the user is typing into its forms.
  const field = details.querySelector('dd[data-field="status"]');
  if (field) field.textContent = statusText(r);
}

/** Highlights the nodes that moved for a few seconds. */
function highlight(ids: readonly string[]): void {
  const nodes = cy.collection();
  for (const id of ids) {
    const node = cy.getElementById(id);
    if (node.nonempty()) nodes.merge(node);
    else if (data) {
      // Collapsed into a group: highlight the group.
      const r = data.resources.get(id);
      const bucket = r ? bucketOf(data, effectiveGrouping(grouping(), data), r) : null;
      if (bucket) nodes.merge(cy.getElementById(bucket.id));
    }
  }
  nodes.addClass('moved');
  window.setTimeout(() => nodes.removeClass('moved'), HIGHLIGHT_MS);
}

/** Adds lines to the list of recent changes, newest first. */
function note(lines: readonly ChangeNote[], observedAt: string): void {
  const at = new Date(observedAt).toLocaleTimeString();
  for (const line of lines) notes.unshift({ ...line, at });
  notes.length = Math.min(notes.length, MAX_NOTES);
  changesEl.replaceChildren(
    ...notes.map((n) => {
      const item = h('li', {}, h('time', {}, n.at), ' ');
      const r = data?.resources.get(n.id);
      item.append(r ? resourceLink(r, n.text) : n.text);
      return item;
    }),
  );
}

function applySearch(): void {
  cy.nodes().removeClass('match faded');
  cy.edges().removeClass('faded');
  if (!data || !searchInput.value.trim()) return;
  const matches = search(data, searchInput.value);
  // A match hidden in a collapsed group opens that group.
  const hidden = matches.filter((r) => cy.getElementById(r.id).empty());
  if (hidden.length > 0 && hidden.length <= 50) {
    const before = expanded.size;
    for (const r of hidden) for (const b of cy.nodes('[kind = "bucket"]')) if (bucketHolds(String(b.id()), r)) expanded.add(String(b.id()));
    if (expanded.size !== before) {
      draw();
      return;
    }
  }
  const found = cy.collection();
  for (const r of matches) found.merge(cy.getElementById(r.id));
  cy.elements().addClass('faded');
  found.removeClass('faded').addClass('match');
  found.connectedEdges().removeClass('faded');
  if (found.nonempty()) cy.fit(found, 60);
}

function bucketHolds(bucketId: string, r: Resource): boolean {
  return data !== null && bucketOf(data, effectiveGrouping(grouping(), data), r)?.id === bucketId;
}

// ---- details -----------------------------------------------------------------------------------

function statusText(r: Resource): string {
  return `${r.statusName ?? 'unknown'}${r.status === null ? '' : ` (${r.status})`}`;
}

function describe(r: Resource): string {
  if (r.kind === 'endpoint') return `endpoint · ${ENDPOINT_TYPES[r.endpointType ?? ''] ?? r.endpointType ?? 'unknown type'}`;
  if (r.kind === 'appWan') return 'AppWAN';
  if (r.kind === 'endpointGroup') return 'endpoint group';
  return `service${r.serviceClass ? ` · ${r.serviceClass}` : ''}`;
}

function resourceLink(r: Resource, text = r.name): HTMLElement {
  const a = h('a', { href: '#', 'data-id': r.id }, text);
  a.addEventListener('click', (event) => {
    event.preventDefault();
    select(r.id);
  });
  return a;
}

/** Shows a resource's details; `center` when it was picked outside the graph (a link, a search). */
function select(id: string, center = true): void {
  selected = id;
  cy.nodes().unselect();
  const node = cy.getElementById(id);
  if (node.nonempty()) {
    node.select();
    if (center) cy.center(node);
  }
  showDetails(id);
}

function showDetails(id: string): void {
  details.replaceChildren();
  if (!data) return;
  if (id.startsWith('bucket:')) {
    const node = cy.getElementById(id);
    const members = [...data.resources.values()].filter((r) => bucketHolds(id, r));
    const expand = h('button', { type: 'button' }, 'Show these endpoints one by one');
    expand.addEventListener('click', () => {
      expanded.add(id);
      draw();
    });
    details.append(h('h2', {}, String(node.data('label') ?? id)), expand, h('ul', {}, ...members.slice(0, 200).map((r) => h('li', {}, resourceLink(r)))));
    return;
  }
  const r = data.resources.get(id);
  if (!r) return;
  const rows: Array<[string, string]> = [
    ['kind', describe(r)],
    ['id', r.id],
    ['status', statusText(r)],
  ];
  if (r.currentStateName) rows.push(['state', r.currentStateName]);
  if (r.kind === 'service') rows.push(['terminator', r.endpointId ? (data.resources.get(r.endpointId)?.name ?? r.endpointId) : r.gatewayClusterId ? `gateway cluster ${r.gatewayClusterId}` : '—']);
  const table = h('dl', { class: 'fields' });
  for (const [k, v] of rows) table.append(h('dt', {}, k), h('dd', { 'data-field': k }, v));
  details.append(h('h2', { 'data-kind': r.kind }, r.name), table);

  const links = linksOf(data, id);
  if (r.kind === 'appWan') {
    const reach = reachOf(data, id);
    const who = [...reach.endpoints.map((e) => e.name), ...reach.endpointGroups.map((g) => `every endpoint in group ${g.name}`)];
    const section = h('section', { id: 'reach' }, h('h3', {}, 'Who can reach what'));
    if (who.length === 0 || reach.services.length === 0) section.append(h('p', {}, 'Nobody: the AppWAN needs both endpoints (or groups) and services.'));
    else section.append(h('p', {}, `${who.length} endpoint${who.length === 1 ? '' : 's'}/groups may connect to ${reach.services.length} service${reach.services.length === 1 ? '' : 's'}:`), h('p', { class: 'who' }, who.join(', ')), h('p', {}, '→ ', reach.services.map((s) => s.name).join(', ')));
    details.append(section, actions(r));
  }
  if (links.length > 0) {
    details.append(h('h3', {}, 'Links'), h('ul', { class: 'links' }, ...links.map((l) => h('li', {}, `${l.relation}: `, resourceLink(l.resource)))));
  }
  details.append(h('div', { id: 'progress', role: 'status', 'data-state': lastProgress.state }, lastProgress.text));
}

// ---- actions -----------------------------------------------------------------------------------

function actions(appWan: Resource): HTMLElement {
  if (!data) return h('div');
  const current = data.members.get(appWan.id);
  const candidates = [...data.resources.values()].filter((r) => r.kind === 'endpoint' && !current?.endpointIds.includes(r.id));
  const endpointSelect = h('select', { id: 'authorize-endpoint' }, ...candidates.map((r) => h('option', { value: r.id }, r.name))) as HTMLSelectElement;
  const authorize = h('button', { type: 'button', id: 'authorize' }, 'Authorize');
  authorize.addEventListener('click', () => void authorizeEndpoint(appWan, endpointSelect.value));

  const gateways = [...data.resources.values()].filter((r) => r.kind === 'endpoint' && r.endpointType !== 'ZTCL');
  const name = h('input', { id: 'service-name', placeholder: 'name', required: '' }) as HTMLInputElement;
  const ip = h('input', { id: 'service-ip', placeholder: '10.0.0.10', required: '' }) as HTMLInputElement;
  const port = h('input', { id: 'service-port', placeholder: '443', inputmode: 'numeric' }) as HTMLInputElement;
  const terminator = h('select', { id: 'service-endpoint' }, ...gateways.map((r) => h('option', { value: r.id }, r.name))) as HTMLSelectElement;
  const add = h('button', { type: 'button', id: 'add-service' }, 'Add service');
  add.addEventListener('click', () => void addService(appWan, { name: name.value.trim(), ip: ip.value.trim(), port: Number(port.value || '443'), endpointId: terminator.value }));

  return h(
    'section',
    { id: 'actions' },
    h('h3', {}, 'Change'),
    h('div', { class: 'row' }, h('label', {}, 'Authorize endpoint ', endpointSelect), authorize),
    h('div', { class: 'row' }, name, ip, port, h('label', {}, 'via ', terminator), add),
  );
}

/** The last change's progress: the panel is rebuilt on clicks, the line must survive that. */
const lastProgress = { text: '', state: '' };

function progress(text: string, state = ''): void {
  lastProgress.text = text;
  lastProgress.state = state;
  const el = document.getElementById('progress');
  if (el) {
    el.textContent = text;
    el.dataset['state'] = state;
  }
}

/** Follows a change's workflow, writing its steps into the details panel. */
function followWorkflow(businessKey: string, what: string): void {
  progress(`${what}: waiting for the workflow…`, 'RUNNING');
  const stop = api.subscribe(
    MAP_WORKFLOW,
    { businessKey },
    ({ workflow: w }) => {
      const done = w.steps.filter((s) => /complete/i.test(s.status ?? '')).length;
      const steps = w.steps.map((s) => `${s.task ?? '?'}: ${s.status ?? '?'}`).join(', ');
      progress(`${what}: ${w.processDefinitionKey ?? 'workflow'} ${w.state} — ${done}/${w.steps.length} steps${steps ? ` (${steps})` : ''}`, w.state);
      if (w.done) stop();
    },
    (error) => {
      if (error) progress(`${what}: ${error.message}`, 'FAILED');
    },
  );
}

/** What a change answered about its AppWAN, shown at once (the live channel confirms it within a poll). */
function updateAppWan(value: { id: string; status?: number | null; statusName?: string | null } | null | undefined): void {
  const r = value ? data?.resources.get(value.id) : undefined;
  if (!value || !r) return;
  r.status = value.status ?? r.status;
  r.statusName = value.statusName ?? r.statusName;
}

async function authorizeEndpoint(appWan: Resource, endpointId: string): Promise<void> {
  if (!data || !endpointId) return;
  const networkId = data.networkId;
  try {
    const { addAppWanEndpoints: payload } = await api.mutate(MAP_AUTHORIZE_ENDPOINT, { networkId, id: appWan.id, ids: [endpointId] });
    const members = data.members.get(appWan.id);
    if (members && !members.endpointIds.includes(endpointId)) members.endpointIds.push(endpointId);
    showMessage(null);
    updateAppWan(payload?.appWan);
    reconcile();
    highlight([appWan.id, endpointId]);
    showDetails(appWan.id);
    if (payload?.businessKey) followWorkflow(payload.businessKey, `Authorizing ${data.resources.get(endpointId)?.name ?? endpointId}`);
  } catch (error) {
    reportError(error, 'Authorizing the endpoint failed');
  }
}

async function addService(appWan: Resource, input: { name: string; ip: string; port: number; endpointId: string }): Promise<void> {
  if (!data) return;
  const networkId = data.networkId;
  if (!input.name || !input.ip || !input.endpointId) {
    showMessage('A service needs a name, an IP address and a terminating endpoint.', 'input');
    return;
  }
  try {
    const { createService: created } = await api.mutate(MAP_CREATE_SERVICE, {
      networkId,
      input: { name: input.name, serviceClass: 'CS', networkIp: input.ip, networkFirstPort: input.port, networkLastPort: input.port, endpointId: input.endpointId },
    });
    const s = created?.service;
    if (!s) throw new ApiError('The gateway accepted the service but did not return it.', 'other', []);
    const service: Resource = { kind: 'service', id: s.id, name: s.name ?? s.id, status: s.status ?? null, statusName: s.statusName ?? null, serviceClass: s.serviceClass ?? null, endpointId: s.endpointId ?? null, gatewayClusterId: s.gatewayClusterId ?? null };
    data.resources.set(service.id, service);
    const { addAppWanServices: added } = await api.mutate(MAP_ADD_SERVICE, { networkId, id: appWan.id, ids: [service.id] });
    const members = data.members.get(appWan.id);
    if (members && !members.serviceIds.includes(service.id)) members.serviceIds.push(service.id);
    showMessage(null);
    updateAppWan(added?.appWan);
    reconcile();
    highlight([appWan.id, service.id]);
    showDetails(appWan.id);
    if (added?.businessKey) followWorkflow(added.businessKey, `Adding ${service.name}`);
  } catch (error) {
    reportError(error, 'Adding the service failed');
  }
}

// ---- live ------------------------------------------------------------------------------------

/** Where the live channel stands, for the person (the counts line) and for tests (`#graph[data-live]`). */
function liveState(state: 'connecting' | 'open' | 'closed'): void {
  graphEl.dataset['live'] = state;
}

/**
 * Follows `networkId` with `networkChanges`: its first event is the whole network (drawn and laid
 * out), each later one is applied in place, highlighted and listed. One subscription at a time.
 */
function follow(networkId: string): void {
  stopFollowing();
  live.networkId = networkId;
  live.events = 0;
  liveState('connecting');
  graphEl.dataset['ready'] = 'false';
  live.stop = api.subscribe(
    MAP_NETWORK_CHANGES,
    { networkId },
    ({ networkChanges: event }) => {
      if (live.networkId !== networkId) return;
      live.events += 1;
      graphEl.dataset['events'] = String(live.events);
      liveState('open');
      apply(event);
    },
    (error) => {
      if (live.networkId !== networkId) return;
      liveState('closed');
      if (error) reportError(error, 'Following the network stopped');
      if (error && (error.problem === 'unreachable' || error.problem === 'gateway')) {
        live.retry = window.setTimeout(() => {
          if (live.networkId === networkId) follow(networkId);
        }, RESUBSCRIBE_MS);
      }
    },
  );
}

function stopFollowing(): void {
  window.clearTimeout(live.retry);
  live.stop?.();
  live.stop = null;
  live.networkId = null;
}

function apply(event: NetworkChanges): void {
  if (event.snapshot || !data || data.networkId !== event.networkId) {
    const fresh = emptyMap(event.networkId);
    applyChanges(fresh, event);
    const other = !data || data.networkId !== event.networkId;
    data = fresh;
    if (other) {
      expanded.clear();
      selected = null;
      details.replaceChildren(h('p', { class: 'hint' }, 'Click a node for its details.'));
      notes.length = 0;
      changesEl.replaceChildren();
    }
    draw();
    showMessage(null);
    return;
  }
  const { notes: lines, touched } = applyChanges(data, event);
  if (event.networkDeleted) {
    showMessage('This network was deleted.', 'other');
    stopFollowing();
    liveState('closed');
  }
  reconcile();
  highlight(touched);
  note(lines, event.observedAt);
}

// ---- loading -----------------------------------------------------------------------------------

/** Lists the networks and opens one straight away: the one in the URL when it is there, else the first. */
async function loadNetworks(): Promise<void> {
  try {
    const { networks } = await api.query(MAP_NETWORKS, {});
    const nodes = networks?.nodes ?? [];
    const wanted = live.networkId ?? networkSelect.value ?? params.get('network') ?? '';
    networkSelect.replaceChildren(...nodes.map((n) => h('option', { value: n.id }, n.name ?? n.id)));
    networkSelect.dataset['loaded'] = String(nodes.length);
    const open = nodes.find((n) => n.id === wanted) ?? nodes.find((n) => n.id === params.get('network')) ?? nodes[0];
    showMessage(null);
    if (!open) {
      showMessage('This token sees no network.', 'other');
      return;
    }
    networkSelect.value = open.id;
    remember(open.id);
    follow(open.id);
  } catch (error) {
    reportError(error, 'Loading the networks failed');
  }
}

/** The network shown goes in the URL (`?network=<id>`), so a link opens the same map. */
function remember(networkId: string): void {
  const url = new URL(location.href);
  url.searchParams.set('network', networkId);
  history.replaceState(null, '', url);
}

// ---- wiring ------------------------------------------------------------------------------------

tokenInput.value = settings.defaultToken;
tokenInput.addEventListener('change', () => {
  stopFollowing();
  api.close();
  api = createApi(graphqlUrl, tokenInput.value.trim().replace(/^Bearer\s+/i, ''));
  void loadNetworks();
});
networkSelect.addEventListener('change', () => {
  if (!networkSelect.value) return;
  remember(networkSelect.value);
  follow(networkSelect.value);
});
groupingSelect.addEventListener('change', () => {
  expanded.clear();
  draw();
});
searchInput.addEventListener('input', () => applySearch());
searchInput.addEventListener('keydown', (event) => {
  if (event.key !== 'Enter' || !data) return;
  const first = search(data, searchInput.value)[0];
  if (first) select(first.id);
});
cy.on('tap', 'node', (event: EventObject) => select(String(event.target.id()), false));

const legend = element<HTMLDivElement>('legend');
legend.append(
  ...[
    ['PROVISIONED / REGISTERED', statusColour('PROVISIONED')],
    ['in progress', statusColour('NEW')],
    ['ERROR', statusColour('ERROR')],
    ['deleting', statusColour('DELETED')],
  ].map(([label = '', colour = '']) => {
    const dot = h('i', { class: 'dot' });
    // CSSOM, not a style attribute: CSP (style-src 'self') governs only the latter.
    dot.style.backgroundColor = colour;
    return h('span', { class: 'swatch' }, dot, label);
  }),
  h('span', {}, 'shapes: hexagon hosted gateway · diamond bridge gateway · circle client · pentagon self-hosted gateway · box AppWAN · octagon endpoint group · tag service · barrel collapsed endpoints'),
);

// The platform's APIs (their breakers, from /readyz): an unavailable one is named in the legend.
const upstreamStatus = h('span', { class: 'upstream-status', hidden: '' });
legend.append(upstreamStatus);
const UPSTREAM_STATUS_MS = 5000;
async function refreshUpstreamStatus(): Promise<void> {
  try {
    const res = await fetch(new URL('readyz', location.href), { cache: 'no-store' });
    const line = upstreamStatusLine(await res.json());
    upstreamStatus.textContent = line ?? '';
    upstreamStatus.hidden = line === null;
  } catch {
    // The gateway is unreachable: the page's own message says so.
  }
}
void refreshUpstreamStatus();
setInterval(() => void refreshUpstreamStatus(), UPSTREAM_STATUS_MS);

/** Read-only handles for tests and the console: where a node is drawn and how it is coloured. */
Object.assign(window, {
  netgraphMap: {
    nodePosition(id: string): { x: number; y: number } | null {
      const node = cy.getElementById(id);
      if (node.empty()) return null;
      const box = graphEl.getBoundingClientRect();
      const p = node.renderedPosition();
      return { x: box.left + p.x, y: box.top + p.y };
    },
    nodeColour: (id: string): string | null => (cy.getElementById(id).nonempty() ? String(cy.getElementById(id).data('colour')) : null),
    /** The network followed and the events its live channel has brought. */
    live: (): { networkId: string | null; events: number } => ({ networkId: live.networkId, events: live.events }),
    /** The list of recent changes, newest first. */
    changes: (): string[] => notes.map((n) => n.text),
    highlighted: (): string[] => cy.nodes('.moved').map((n) => String(n.id())),
  },
});

void loadNetworks();
