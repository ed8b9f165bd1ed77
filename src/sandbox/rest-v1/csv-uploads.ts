/**
 * Endpoint and service CSV uploads: POST `text/csv` to the create paths. Every row is checked
 * (the network-management API's headings) before anything is created; the first bad cell is a 400 naming its row
 * and column and nothing is created. Success: 202 `{ businessKey, endpoints | services: [...] }`.
 */
import type { SandboxRequest, SandboxResponse } from '../core/types';
import { HttpError } from '../core/types';
import { findParent, render } from './area-state';
import type { Env } from './env';
import { csvError, readCsvRows, type CsvRow } from './csv';
import type { JsonObject } from './json';
import { keyedChange } from './changes';
import { resource, type ResourceSpec } from './resources';
import type { CreateOverrides } from './table-routes';
import { commitEntity, prepareEntity } from './table-routes';

export const CSV_MEDIA_TYPES = ['text/csv', 'application/csv'];

const CIDR_OR_IP = /^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}(\/([0-9]|[12]\d|3[0-2]))?$/;
const SERVICE_TYPES: Record<string, string> = { CS: 'CS', HOST: 'CS', GW: 'GW', NETWORK: 'GW', ICMP: 'ICMP' };

type RowReader = (env: Env, row: CsvRow, networkId: string) => JsonObject;

function cell(row: CsvRow, column: string): string {
  return row.values.get(column) ?? '';
}

function readEndpointRow(env: Env, row: CsvRow): JsonObject {
  const name = cell(row, 'NAME');
  if (name === '') throw csvError(row.row, 'NAME', 'a name is required');
  const type = cell(row, 'ENDPOINTTYPE');
  if (type === '') throw csvError(row.row, 'ENDPOINTTYPE', 'an endpoint type is required');
  if (!/^[A-Z0-9_]+$/.test(type)) throw csvError(row.row, 'ENDPOINTTYPE', `"${type}" must be uppercase without whitespace`);
  const input: JsonObject = { name, endpointType: type };
  const regionName = cell(row, 'GEOREGION');
  if (regionName !== '') {
    const region = env.store.all('geoRegion').find((r) => r.data['name'] === regionName);
    if (region === undefined) throw csvError(row.row, 'GEOREGION', `no geographic region named "${regionName}"`);
    input['geoRegionId'] = region.id;
  }
  const dcName = cell(row, 'DATACENTER');
  const provider = cell(row, 'PROVIDER');
  if (dcName !== '') {
    const dc = env.store
      .all('dataCenter')
      .find((d) => d.data['locationName'] === dcName && (provider === '' || String(d.data['provider']).toUpperCase() === provider.toUpperCase()));
    if (dc === undefined) throw csvError(row.row, 'DATACENTER', `no data center "${dcName}"${provider ? ` of provider ${provider}` : ''}`);
    input['dataCenterId'] = dc.id;
  } else if (provider !== '' && !env.store.all('dataCenter').some((d) => String(d.data['provider']).toUpperCase() === provider.toUpperCase())) {
    throw csvError(row.row, 'PROVIDER', `unknown provider "${provider}"`);
  }
  return input;
}

function readServiceRow(env: Env, row: CsvRow, networkId: string): JsonObject {
  const name = cell(row, 'NAME');
  if (name === '') throw csvError(row.row, 'NAME', 'a name is required');
  const type = SERVICE_TYPES[cell(row, 'TYPE').toUpperCase()];
  if (type === undefined) throw csvError(row.row, 'TYPE', `"${cell(row, 'TYPE')}" is not a service class (CS, GW, ICMP, HOST or NETWORK)`);
  const protocol = cell(row, 'PROTOCOLSTRING').toUpperCase();
  if (!['TCP', 'UDP', 'ALL', 'ICMP'].includes(protocol)) throw csvError(row.row, 'PROTOCOLSTRING', `"${cell(row, 'PROTOCOLSTRING')}" must be TCP, UDP, ALL or ICMP`);
  const ip = cell(row, 'IPADDRESSSTRING');
  if (!CIDR_OR_IP.test(ip)) throw csvError(row.row, 'IPADDRESSSTRING', `"${ip}" is not a dotted quad or CIDR`);
  const intercept = cell(row, 'INTERCEPTADDRESS');
  if (intercept !== '' && !CIDR_OR_IP.test(intercept)) throw csvError(row.row, 'INTERCEPTADDRESS', `"${intercept}" is not a dotted quad or CIDR`);
  const range = /^(\d{1,5})(?:-(\d{1,5}))?$/.exec(cell(row, 'PORTRANGE'));
  const first = range ? Number(range[1]) : NaN;
  const last = range ? Number(range[2] ?? range[1]) : NaN;
  if (!range || first > last || last > 65535) throw csvError(row.row, 'PORTRANGE', `"${cell(row, 'PORTRANGE')}" is not a port or a range like 8000-8080`);
  const endpointName = cell(row, 'ENDPOINT');
  const endpoint = env.store.where('endpoint', 'networkId', networkId).find((e) => e.data['name'] === endpointName);
  if (endpoint === undefined) throw csvError(row.row, 'ENDPOINT', `no endpoint named "${endpointName}" in this network`);
  const [address, bits] = ip.split('/');
  return {
    name,
    serviceClass: type,
    serviceType: protocol,
    networkIp: address,
    networkNetmask: bits === undefined ? '255.255.255.255' : netmask(Number(bits)),
    networkFirstPort: first,
    networkLastPort: last,
    interceptIp: intercept === '' ? address : intercept.split('/')[0],
    interceptFirstPort: first,
    interceptLastPort: last,
    endpointId: endpoint.id,
  };
}

function netmask(bits: number): string {
  const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
  return [24, 16, 8, 0].map((shift) => (mask >>> shift) & 255).join('.');
}

const UPLOADS: ReadonlyArray<{ kind: string; headings: string[]; required: string[]; read: RowReader; process: 'UploadEndpoints' | 'UploadServices' }> = [
  { kind: 'endpoint', headings: ['NAME', 'ENDPOINTTYPE', 'GEOREGION', 'DATACENTER', 'PROVIDER'], required: ['NAME', 'ENDPOINTTYPE'], read: readEndpointRow, process: 'UploadEndpoints' },
  { kind: 'service', headings: ['NAME', 'STATUS', 'TYPE', 'PROTOCOLSTRING', 'IPADDRESSSTRING', 'INTERCEPTADDRESS', 'PORTRANGE', 'ENDPOINT'],
    required: ['NAME', 'TYPE', 'PROTOCOLSTRING', 'IPADDRESSSTRING', 'PORTRANGE', 'ENDPOINT'], read: readServiceRow, process: 'UploadServices' },
];

function upload(spec: ResourceSpec, def: (typeof UPLOADS)[number], env: Env, req: SandboxRequest): SandboxResponse {
  const network = findParent(env, spec);
  if (network === null) throw new HttpError(404, 'network not found');
  const rows = readCsvRows(req.rawBody, def.headings, def.required);
  const seen = new Set<string>();
  const prepared = rows.map((row) => {
    const input = def.read(env, row, network.id);
    const name = String(input['name']);
    if (seen.has(name)) throw csvError(row.row, 'NAME', `"${name}" appears more than once in the file`);
    if (env.store.where(spec.kind, 'networkId', network.id).some((e) => e.data['name'] === name)) {
      throw csvError(row.row, 'NAME', `"${name}" is already used in this network`);
    }
    seen.add(name);
    try {
      return prepareEntity(env, spec, input, { parentId: network.id });
    } catch (err) {
      if (err instanceof HttpError) throw new HttpError(400, `CSV row ${row.row}: ${err.message}`);
      throw err;
    }
  });
  // Every row is valid: create them all.
  const change = keyedChange(env, def.process, { networkId: network.id });
  const created = prepared.map((data) => commitEntity(env, spec, data, change));
  return { status: 202, json: { businessKey: change.process.businessKey, [spec.plural]: created.map((e) => render(spec, e, req.origin)) } };
}

export function csvOverrides(): CreateOverrides {
  const out: CreateOverrides = {};
  for (const def of UPLOADS) {
    const spec = resource(def.kind);
    const handler = (env: Env, req: SandboxRequest): SandboxResponse => upload(spec, def, env, req);
    out[def.kind] = Object.fromEntries(CSV_MEDIA_TYPES.map((t) => [t, handler]));
  }
  return out;
}
