/**
 * The network map page: pick a network, draw it from one query (the bench's networkMap), keep
 * statuses current with resourceStatus subscriptions, show details and run the two changes on
 * click. Plain DOM code; the graph is Cytoscape.js with the dagre layout.
 */
import cytoscape, { type Core, type EventObject } from 'cytoscape';
import dagre from 'cytoscape-dagre';
import MAP_QUERY from '../../bench/queries/network-map.graphql';
import { ApiError, createApi, isRecord, type Api } from './api';
import {
  bucketOf,
  buildElements,
  effectiveGrouping,
  ENDPOINT_TYPES,
  linksOf,
  reachOf,
  search,
  statusColour,
  TERMINAL,
  toMapData,
  type Grouping,
  type MapData,
  type Resource,
} from './model';

cytoscape.use(dagre);

const NETWORKS_QUERY = 'query mapNetworks { networks(first: 1000) { nodes { id name statusName } } }';
const RESOURCE_STATUS = `subscription mapResourceStatus($kind: ResourceKind!, $networkId: UUID, $id: UUID!) {
  resourceStatus(kind: $kind, networkId: $networkId, id: $id) { status statusName terminal }
}`;
const WORKFLOW = 'subscription mapWorkflow($businessKey: String!) { workflow(businessKey: $businessKey) { processDefinitionKey state done steps { task status } } }';
const ADD_ENDPOINTS = `mutation mapAuthorizeEndpoint($networkId: UUID!, $id: UUID!, $ids: [UUID!]!) {
  addAppWanEndpoints(networkId: $networkId, id: $id, input: { ids: $ids }) { accepted businessKey appWan { id status statusName } }
}`;
const CREATE_SERVICE = `mutation mapCreateService($networkId: UUID!, $input: CreateServiceInput!) {
  createService(networkId: $networkId, input: $input) { accepted id service { id name status statusName serviceClass endpointId gatewayClusterId } }
}`;
const ADD_SERVICES = `mutation mapAddService($networkId: UUID!, $id: UUID!, $ids: [UUID!]!) {
  addAppWanServices(networkId: $networkId, id: $id, input: { ids: $ids }) { accepted businessKey appWan { id status statusName } }
}`;
/**
 * Bound on the page's resourceStatus subscriptions: the gateway allows 20 per connection by
 * default (MAX_SUBSCRIPTIONS_PER_CONNECTION), and workflow subscriptions need room too. Resources
 * beyond it wait in a queue and are subscribed as others finish.
 */
const MAX_STATUS_SUBSCRIPTIONS = 12;
const KIND_ARG: Record<string, string> = { endpoint: 'ENDPOINT', service: 'SERVICE', appWan: 'APP_WAN' };

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
// Re-reading the map finds resources created or changed elsewhere (another tab, the IDE) whose
// status was already final; resourceStatus covers the ones still moving. `?refresh=<s>` sets it.
const refreshSeconds = Math.max(1, Number(params.get('refresh') ?? '30') || 30);

const tokenInput = element<HTMLInputElement>('token');
const networkSelect = element<HTMLSelectElement>('network');
const groupingSelect = element<HTMLSelectElement>('grouping');
const searchInput = element<HTMLInputElement>('search');
const graphEl = element<HTMLDivElement>('graph');
const details = element<HTMLElement>('details');
const messageEl = element<HTMLDivElement>('message');
const countsEl = element<HTMLSpanElement>('counts');

let api: Api = createApi(graphqlUrl, settings.defaultToken);
let data: MapData | null = null;
let selected: string | null = null;
const expanded = new Set<string>();
/** Running resourceStatus subscriptions by resource id, and the ids waiting for a slot. */
const watching = new Map<string, () => void>();
const waiting: string[] = [];
let refreshTimer: number | undefined;

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
  graphEl.dataset['nodes'] = String(cy.nodes().length);
  graphEl.dataset['edges'] = String(cy.edges().length);
  graphEl.dataset['ready'] = 'true';
  countsEl.textContent = `${data.networkName}: ${cy.nodes().length} nodes, ${cy.edges().length} edges`;
  if (selected && cy.getElementById(selected).nonempty()) cy.getElementById(selected).select();
  applySearch();
}

function recolour(r: Resource): void {
  const node = cy.getElementById(r.id);
  if (node.nonempty()) node.data({ colour: statusColour(r.statusName), statusName: r.statusName ?? '' });
  // Only the status line: rebuilding the panel would wipe what the user is typing into its forms.
  const field = selected === r.id ? details.querySelector('dd[data-field="status"]') : null;
  if (field) field.textContent = statusText(r);
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

function resourceLink(r: Resource): HTMLElement {
  const a = h('a', { href: '#', 'data-id': r.id }, r.name);
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
    WORKFLOW,
    { businessKey },
    (d) => {
      const w = d['workflow'];
      if (!isRecord(w)) return;
      const steps = Array.isArray(w['steps']) ? w['steps'].filter(isRecord) : [];
      const done = steps.filter((s) => /complete/i.test(String(s['status']))).length;
      const state = String(w['state']);
      progress(`${what}: ${String(w['processDefinitionKey'] ?? 'workflow')} ${state} — ${done}/${steps.length} steps${steps.length ? ` (${steps.map((s) => `${String(s['task'])}: ${String(s['status'])}`).join(', ')})` : ''}`, state);
      if (w['done'] === true) stop();
    },
    (error) => {
      if (error) progress(`${what}: ${error.message}`, 'FAILED');
    },
  );
}

function updateAppWan(value: unknown): void {
  if (!data || !isRecord(value) || typeof value['id'] !== 'string') return;
  const r = data.resources.get(value['id']);
  if (!r) return;
  r.status = typeof value['status'] === 'number' ? value['status'] : r.status;
  r.statusName = typeof value['statusName'] === 'string' ? value['statusName'] : r.statusName;
  recolour(r);
  watch(r.id, true);
}

async function authorizeEndpoint(appWan: Resource, endpointId: string): Promise<void> {
  if (!data || !endpointId) return;
  const networkId = data.networkId;
  try {
    const d = await api.mutate(ADD_ENDPOINTS, { networkId, id: appWan.id, ids: [endpointId] });
    const payload = isRecord(d['addAppWanEndpoints']) ? d['addAppWanEndpoints'] : {};
    data.members.get(appWan.id)?.endpointIds.push(endpointId);
    showMessage(null);
    draw();
    updateAppWan(payload['appWan']);
    showDetails(appWan.id);
    if (typeof payload['businessKey'] === 'string') followWorkflow(payload['businessKey'], `Authorizing ${data.resources.get(endpointId)?.name ?? endpointId}`);
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
    const created = await api.mutate(CREATE_SERVICE, {
      networkId,
      input: { name: input.name, serviceClass: 'CS', networkIp: input.ip, networkFirstPort: input.port, networkLastPort: input.port, endpointId: input.endpointId },
    });
    const payload = isRecord(created['createService']) ? created['createService'] : {};
    const service = toMapData({ id: networkId, services: { nodes: [payload['service']] } })?.resources.values().next().value;
    if (!service) throw new ApiError('The gateway accepted the service but did not return it.', 'other', []);
    data.resources.set(service.id, service);
    const added = await api.mutate(ADD_SERVICES, { networkId, id: appWan.id, ids: [service.id] });
    const addPayload = isRecord(added['addAppWanServices']) ? added['addAppWanServices'] : {};
    data.members.get(appWan.id)?.serviceIds.push(service.id);
    showMessage(null);
    draw();
    watch(service.id, true);
    updateAppWan(addPayload['appWan']);
    showDetails(appWan.id);
    if (typeof addPayload['businessKey'] === 'string') followWorkflow(addPayload['businessKey'], `Adding ${service.name}`);
  } catch (error) {
    reportError(error, 'Adding the service failed');
  }
}

// ---- live status -------------------------------------------------------------------------------

/** Subscribes to a resource's status when it may still change (or `force`: it just changed). */
function watch(id: string, force = false): void {
  const r = data?.resources.get(id);
  if (!r || !KIND_ARG[r.kind] || (!force && TERMINAL.has(r.statusName ?? ''))) return;
  if (watching.has(id)) {
    if (!force) return;
    // A fresh change restarts the subscription: the old one may already have seen a final status.
    watching.get(id)?.();
    watching.delete(id);
  }
  if (watching.size >= MAX_STATUS_SUBSCRIPTIONS) {
    if (!waiting.includes(id)) waiting.push(id);
    return;
  }
  const networkId = data?.networkId;
  const stop = api.subscribe(
    RESOURCE_STATUS,
    { kind: KIND_ARG[r.kind], networkId, id },
    (d) => {
      const event = d['resourceStatus'];
      const current = data?.resources.get(id);
      if (!isRecord(event) || !current || data?.networkId !== networkId) return;
      current.status = typeof event['status'] === 'number' ? event['status'] : null;
      current.statusName = typeof event['statusName'] === 'string' ? event['statusName'] : null;
      recolour(current);
      if (event['terminal'] === true) finish(id);
    },
    (error) => {
      finish(id);
      if (error && error.problem !== 'other') reportError(error, 'Following statuses stopped');
    },
  );
  watching.set(id, stop);
}

function finish(id: string): void {
  watching.get(id)?.();
  watching.delete(id);
  const next = waiting.shift();
  if (next !== undefined) watch(next);
}

function unwatchAll(): void {
  for (const stop of watching.values()) stop();
  watching.clear();
  waiting.length = 0;
}

// ---- loading -----------------------------------------------------------------------------------

async function loadNetworks(): Promise<void> {
  try {
    const d = await api.query(NETWORKS_QUERY, {});
    const conn = d['networks'];
    const nodes = isRecord(conn) && Array.isArray(conn['nodes']) ? conn['nodes'].filter(isRecord) : [];
    const keep = networkSelect.value || params.get('network') || '';
    networkSelect.replaceChildren(h('option', { value: '' }, '— pick a network —'), ...nodes.map((n) => h('option', { value: String(n['id']) }, String(n['name'] ?? n['id']))));
    networkSelect.dataset['loaded'] = String(nodes.length);
    if (keep && nodes.some((n) => n['id'] === keep)) {
      networkSelect.value = keep;
      await loadMap(false);
    }
    showMessage(null);
  } catch (error) {
    reportError(error, 'Loading the networks failed');
  }
}

/** Runs the map query; `refresh` keeps the drawing when only statuses changed. */
async function loadMap(refresh: boolean): Promise<void> {
  const networkId = networkSelect.value;
  if (!networkId) return;
  try {
    const d = await api.query(MAP_QUERY, { networkId, first: 1000 });
    if (networkSelect.value !== networkId) return; // another network was picked meanwhile
    const next = toMapData(d['network']);
    if (!next) throw new ApiError('The network was not found.', 'other', []);
    const sameShape = refresh && data !== null && data.networkId === next.networkId && shapeKey(data) === shapeKey(next);
    const previous = data;
    data = next;
    if (!previous || previous.networkId !== next.networkId) {
      unwatchAll();
      expanded.clear();
      selected = null;
      details.replaceChildren(h('p', { class: 'hint' }, 'Click a node for its details.'));
    }
    if (sameShape) for (const r of next.resources.values()) recolour(r);
    else draw();
    for (const r of next.resources.values()) watch(r.id);
    showMessage(null);
  } catch (error) {
    reportError(error, 'Loading the network failed');
  }
}

/** Ids and links of a map: when they are unchanged a refresh only recolours. */
function shapeKey(d: MapData): string {
  const ids = [...d.resources.keys()].sort().join(',');
  const members = [...d.members].map(([a, m]) => `${a}:${[...m.endpointIds, ...m.serviceIds, ...m.endpointGroupIds].sort().join(',')}`).sort().join(';');
  return `${ids}|${members}`;
}

function scheduleRefresh(): void {
  window.clearInterval(refreshTimer);
  refreshTimer = window.setInterval(() => {
    if (document.visibilityState === 'visible') void loadMap(true);
  }, refreshSeconds * 1000);
}

// ---- wiring ------------------------------------------------------------------------------------

tokenInput.value = settings.defaultToken;
tokenInput.addEventListener('change', () => {
  unwatchAll();
  api.close();
  api = createApi(graphqlUrl, tokenInput.value.trim().replace(/^Bearer\s+/i, ''));
  void loadNetworks();
});
networkSelect.addEventListener('change', () => {
  const url = new URL(location.href);
  url.searchParams.set('network', networkSelect.value);
  history.replaceState(null, '', url);
  graphEl.dataset['ready'] = 'false';
  void loadMap(false);
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
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'visible') void loadMap(true);
});

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
    watching: (): string[] => [...watching.keys()],
  },
});

scheduleRefresh();
void loadNetworks();
