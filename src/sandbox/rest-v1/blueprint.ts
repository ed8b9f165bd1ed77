/**
 * As-code YAML blueprints. A network blueprint names everything by name (not id):
 *
 * ```yaml
 * network: { name, productFamily, productVersion, networkConfigMetadata: <template name> }
 * endpoints: [ { name, endpointType, geoRegion: <region name> } ]
 * services: [ { name, serviceClass, serviceType, networkIp, networkFirstPort, networkLastPort,
 *               interceptIp, interceptDnsHostname, interceptDnsPort, interceptFirstPort, interceptLastPort,
 *               endpoint: <endpoint name> } ]
 * endpointGroups: [ { name, endpoints: [names] } ]
 * appWans: [ { name, endpoints: [names], services: [names], endpointGroups: [names] } ]
 * ```
 *
 * The AppWAN blueprint is `appWan: { name, endpoints, services, endpointGroups }`. Uploading a
 * network blueprint (POST /organizations/{id}/networks, any YAML media type) checks the whole
 * document first (400 naming the path of the first problem), then creates everything.
 */
import * as yaml from 'js-yaml';
import { HttpError } from '../core/types';
import type { Env } from './env';
import { STATUS } from './format';
import { isObject, type JsonObject } from './json';
import { keyedChange, settle } from './changes';
import { resource } from './resources';
import type { Entity, Process } from './store';
import { commitEntity, prepareEntity } from './table-routes';

export const YAML_MEDIA_TYPE = 'application/x-yaml';

const SERVICE_KEYS = ['name', 'serviceClass', 'serviceType', 'networkIp', 'networkNetmask', 'networkFirstPort', 'networkLastPort',
  'interceptIp', 'interceptDnsHostname', 'interceptDnsPort', 'interceptFirstPort', 'interceptLastPort'] as const;

function names(store: Env['store'], kind: string, ids: Iterable<string>): string[] {
  return [...ids].map((id) => store.get(kind, id)?.data['name']).filter((n): n is string => typeof n === 'string');
}

function pick(data: JsonObject, keys: readonly string[]): JsonObject {
  const out: JsonObject = {};
  for (const k of keys) if (data[k] !== null && data[k] !== undefined) out[k] = data[k];
  return out;
}

function appWanDoc(env: Env, appWan: Entity): JsonObject {
  const m = env.store.members(appWan.id);
  return {
    name: appWan.data['name'],
    endpoints: names(env.store, 'endpoint', m.endpoints),
    services: names(env.store, 'service', m.services),
    endpointGroups: names(env.store, 'endpointGroup', m.endpointGroups),
  };
}

export function networkBlueprint(env: Env, network: Entity): string {
  const { store } = env;
  const template = store.get('networkConfigMetadata', String(network.data['networkConfigMetadataId']));
  const byName = (kind: string, id: unknown): string | undefined => {
    const name = typeof id === 'string' ? store.get(kind, id)?.data['name'] : undefined;
    return typeof name === 'string' ? name : undefined;
  };
  const doc = {
    network: { ...pick(network.data, ['name', 'productFamily', 'productVersion']), ...(template ? { networkConfigMetadata: template.data['name'] } : {}) },
    endpoints: store.where('endpoint', 'networkId', network.id).map((e) => ({
      ...pick(e.data, ['name', 'endpointType']),
      ...(byName('geoRegion', e.data['geoRegionId']) !== undefined ? { geoRegion: byName('geoRegion', e.data['geoRegionId']) } : {}),
    })),
    services: store.where('service', 'networkId', network.id).map((s) => ({
      ...pick(s.data, SERVICE_KEYS),
      ...(byName('endpoint', s.data['endpointId']) !== undefined ? { endpoint: byName('endpoint', s.data['endpointId']) } : {}),
    })),
    endpointGroups: store.where('endpointGroup', 'networkId', network.id).map((g) => ({
      name: g.data['name'],
      endpoints: names(store, 'endpoint', store.groupEndpoints(g.id)),
    })),
    appWans: store.where('appWan', 'networkId', network.id).map((a) => appWanDoc(env, a)),
  };
  return yaml.dump(doc, { lineWidth: 120, noRefs: true });
}

export function appWanBlueprint(env: Env, appWan: Entity): string {
  return yaml.dump({ appWan: appWanDoc(env, appWan) }, { lineWidth: 120, noRefs: true });
}

function list(doc: JsonObject, key: string): JsonObject[] {
  const value = doc[key];
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new HttpError(400, `blueprint ${key}: expected a list`);
  return value.map((item, i) => {
    if (!isObject(item)) throw new HttpError(400, `blueprint ${key}[${i}]: expected a mapping`);
    return item;
  });
}

function nameList(item: JsonObject, key: string, where: string, known: Map<string, unknown>): string[] {
  const value = item[key];
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || !value.every((x): x is string => typeof x === 'string')) throw new HttpError(400, `${where}.${key}: expected a list of names`);
  for (const n of value) if (!known.has(n)) throw new HttpError(400, `${where}.${key}: no ${key.replace(/s$/, '')} named "${n}" in the blueprint`);
  return value;
}

function at<T>(where: string, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof HttpError) throw new HttpError(err.status, `${where}: ${err.message}`);
    throw err;
  }
}

/** Creates a network and its resources from a blueprint; everything is checked before any change. */
export function createFromBlueprint(env: Env, organizationId: string, text: string): { network: Entity; process: Process } {
  let parsed: unknown;
  try {
    parsed = yaml.load(text);
  } catch (err) {
    throw new HttpError(400, `blueprint is not valid YAML: ${err instanceof Error ? err.message.split('\n')[0] : 'parse error'}`);
  }
  if (!isObject(parsed) || !isObject(parsed['network'])) throw new HttpError(400, 'blueprint network: a mapping with at least a name is required');
  const netDoc = parsed['network'];
  const { store } = env;
  const networkSpec = resource('network');
  const templateName = netDoc['networkConfigMetadata'];
  const template = typeof templateName === 'string' ? store.all('networkConfigMetadata').find((t) => t.data['name'] === templateName) : undefined;
  if (typeof templateName === 'string' && template === undefined) throw new HttpError(400, `blueprint network.networkConfigMetadata: no template named "${templateName}"`);
  const networkData = at('blueprint network', () =>
    prepareEntity(env, networkSpec, { ...pick(netDoc, ['name', 'productFamily', 'productVersion']), organizationId, networkConfigMetadataId: template?.id ?? null }),
  );
  const networkId = networkData.id;

  const unique = (items: JsonObject[], key: string): Map<string, JsonObject> => {
    const map = new Map<string, JsonObject>();
    items.forEach((item, i) => {
      const n = item['name'];
      if (typeof n !== 'string' || n === '') throw new HttpError(400, `blueprint ${key}[${i}].name is required`);
      if (map.has(n)) throw new HttpError(400, `blueprint ${key}[${i}].name: "${n}" is used twice`);
      map.set(n, item);
    });
    return map;
  };
  const endpointDocs = unique(list(parsed, 'endpoints'), 'endpoints');
  const serviceDocs = unique(list(parsed, 'services'), 'services');
  const groupDocs = unique(list(parsed, 'endpointGroups'), 'endpointGroups');
  const appWanDocs = unique(list(parsed, 'appWans'), 'appWans');

  const endpoints = [...endpointDocs.values()].map((doc, i) => {
    const region = doc['geoRegion'];
    const geo = typeof region === 'string' ? store.all('geoRegion').find((r) => r.data['name'] === region) : undefined;
    if (typeof region === 'string' && geo === undefined) throw new HttpError(400, `blueprint endpoints[${i}].geoRegion: no region named "${region}"`);
    return at(`blueprint endpoints[${i}]`, () =>
      prepareEntity(env, resource('endpoint'), { ...pick(doc, ['name', 'endpointType']), geoRegionId: geo?.id ?? null }, { parentId: networkId, skipCheck: true }),
    );
  });
  const endpointIds = new Map(endpoints.map((e) => [String(e['name']), e.id]));
  const services = [...serviceDocs.values()].map((doc, i) => {
    const endpointName = doc['endpoint'];
    const endpointId = typeof endpointName === 'string' ? endpointIds.get(endpointName) : undefined;
    if (endpointId === undefined) throw new HttpError(400, `blueprint services[${i}].endpoint: no endpoint named "${String(endpointName)}" in the blueprint`);
    return at(`blueprint services[${i}]`, () => prepareEntity(env, resource('service'), { ...pick(doc, SERVICE_KEYS), endpointId }, { parentId: networkId, skipCheck: true }));
  });
  const serviceIds = new Map(services.map((s) => [String(s['name']), s.id]));
  const groups = [...groupDocs.entries()].map(([name, doc], i) => ({
    data: at(`blueprint endpointGroups[${i}]`, () => prepareEntity(env, resource('endpointGroup'), { name }, { parentId: networkId, skipCheck: true })),
    endpoints: nameList(doc, 'endpoints', `blueprint endpointGroups[${i}]`, endpointIds),
  }));
  const groupIds = new Map(groups.map((g) => [String(g.data['name']), g.data.id]));
  const appWans = [...appWanDocs.entries()].map(([name, doc], i) => {
    const where = `blueprint appWans[${i}]`;
    return {
      data: at(where, () => prepareEntity(env, resource('appWan'), { name }, { parentId: networkId, skipCheck: true })),
      endpoints: nameList(doc, 'endpoints', where, endpointIds),
      services: nameList(doc, 'services', where, serviceIds),
      endpointGroups: nameList(doc, 'endpointGroups', where, groupIds),
    };
  });

  // Everything checked: create. The change is the network's: when it fails, the network and the
  // AppWANs waiting for its process turn ERROR; endpoints and services progress on their own.
  const change = keyedChange(env, 'CreateNetworkFromBlueprint', { networkId, entityId: networkId });
  const network = commitEntity(env, networkSpec, networkData, change);
  for (const e of endpoints) commitEntity(env, resource('endpoint'), e);
  for (const s of services) commitEntity(env, resource('service'), s);
  for (const g of groups) {
    const entity = commitEntity(env, resource('endpointGroup'), g.data);
    for (const n of g.endpoints) store.groupEndpoints(entity.id).add(endpointIds.get(n) ?? '');
  }
  for (const a of appWans) {
    const entity = commitEntity(env, resource('appWan'), a.data);
    const m = store.members(entity.id);
    for (const n of a.endpoints) m.endpoints.add(endpointIds.get(n) ?? '');
    for (const n of a.services) m.services.add(serviceIds.get(n) ?? '');
    for (const n of a.endpointGroups) m.endpointGroups.add(groupIds.get(n) ?? '');
    if (m.endpoints.size + m.services.size + m.endpointGroups.size > 0) {
      // Like a membership change: UPDATING until the process has applied the AppWANs.
      entity.data['status'] = STATUS.UPDATING;
      settle(env, entity, change, [{ at: change.endsAt, set: { status: STATUS.PROVISIONED } }]);
    }
  }
  return { network, process: change.process };
}
