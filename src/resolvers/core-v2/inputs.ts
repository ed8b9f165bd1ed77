/**
 * core/v2 create inputs → request bodies, checked against the management API v2's rules before any call (a bad
 * input costs zero calls, BAD_USER_INPUT naming the field):
 *
 * - names and ids not empty; ports 1–65535;
 * - a resource's own `attributes` are tags: each `#tag` (no whitespace), never `#all` (it means
 *   "every resource" in selectors and cannot be carried);
 * - selector lists (`endpointAttributes`, `edgeRouterAttributes`, `serviceAttributes`,
 *   `bindEndpointAttributes`) hold `#tag`, `@name` (one resource by name) or `#all`;
 * - a service's `model` has the shape its `modelType` asks for (`TunnelerToEndpoint`: bind
 *   attributes and a server egress; `TunnelerToEdgeRouter`: edge router hosts).
 *
 * Fields left out are not sent (the upstream fills its defaults).
 */
import { BadInputError } from '../../errors/codes';
import type {
  CreateEdgeRouterInput,
  CreateEdgeRouterPolicyInput,
  CreateV2AppWanInput,
  CreateV2EndpointInput,
  CreateV2NetworkInput,
  CreateV2ServiceInput,
  V2HostPortInput,
  V2ServerEgressInput,
} from '../../generated/graphql';
import type { JsonObject } from '../../core/parse';
import { ALL } from './reach';

const PORT_MAX = 65_535;
const TAG = /^#\S+$/;

const bad = (field: string, message: string): BadInputError => new BadInputError(field, `${field} ${message}`);

function text(value: string, field: string): string {
  if (value.trim() === '') throw bad(field, 'must not be empty');
  return value;
}

function port(value: number, field: string): number {
  if (!Number.isInteger(value) || value < 1 || value > PORT_MAX) throw bad(field, `must be an integer from 1 to ${PORT_MAX}`);
  return value;
}

/** A resource's own tags: each `#tag`, never `#all`. */
export function tags(values: readonly string[], field: string): string[] {
  values.forEach((v, i) => {
    if (v === ALL) throw bad(`${field}[${i}]`, 'must not be #all: it selects every resource and cannot be carried as a tag');
    if (!TAG.test(v)) throw bad(`${field}[${i}]`, `must be a tag like #servers (got ${JSON.stringify(v)})`);
  });
  return [...values];
}

/** A selector list: `#tag`, `@name` or `#all`. */
export function selectors(values: readonly string[], field: string): string[] {
  values.forEach((v, i) => {
    const ok = TAG.test(v) || (v.startsWith('@') && v.slice(1).trim() !== '');
    if (!ok) throw bad(`${field}[${i}]`, `must be a role attribute: #tag, @name or #all (got ${JSON.stringify(v)})`);
  });
  return [...values];
}

/** Copies the present (non-null) optional fields. */
function present(entries: Record<string, unknown>): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(entries)) if (v !== undefined && v !== null) out[k] = v;
  return out;
}

const opt = <T, R>(value: T | null | undefined, f: (v: T) => R): R | undefined => (value === null || value === undefined ? undefined : f(value));

function hostPort(value: V2HostPortInput, field: string): JsonObject {
  return { host: text(value.host, `${field}.host`), port: port(value.port, `${field}.port`) };
}

function egress(value: V2ServerEgressInput, field: string): JsonObject {
  return { protocol: text(value.protocol, `${field}.protocol`), host: text(value.host, `${field}.host`), port: port(value.port, `${field}.port`) };
}

export function v2NetworkBody(input: CreateV2NetworkInput): JsonObject {
  return present({ name: text(input.name, 'input.name'), locationCode: input.locationCode, networkConfigMetadataId: input.networkConfigMetadataId, networkGroupId: input.networkGroupId });
}

export function edgeRouterBody(input: CreateEdgeRouterInput): JsonObject {
  return present({
    networkId: text(input.networkId, 'input.networkId'),
    name: text(input.name, 'input.name'),
    attributes: opt(input.attributes, (v) => tags(v, 'input.attributes')),
    dataCenterId: input.dataCenterId,
    linkListener: input.linkListener,
  });
}

export function edgeRouterPolicyBody(input: CreateEdgeRouterPolicyInput): JsonObject {
  return present({
    networkId: text(input.networkId, 'input.networkId'),
    name: text(input.name, 'input.name'),
    endpointAttributes: opt(input.endpointAttributes, (v) => selectors(v, 'input.endpointAttributes')),
    edgeRouterAttributes: opt(input.edgeRouterAttributes, (v) => selectors(v, 'input.edgeRouterAttributes')),
  });
}

export function v2AppWanBody(input: CreateV2AppWanInput): JsonObject {
  return present({
    networkId: text(input.networkId, 'input.networkId'),
    name: text(input.name, 'input.name'),
    serviceAttributes: opt(input.serviceAttributes, (v) => selectors(v, 'input.serviceAttributes')),
    endpointAttributes: opt(input.endpointAttributes, (v) => selectors(v, 'input.endpointAttributes')),
  });
}

export function v2EndpointBody(input: CreateV2EndpointInput): JsonObject {
  return present({
    networkId: text(input.networkId, 'input.networkId'),
    name: text(input.name, 'input.name'),
    attributes: opt(input.attributes, (v) => tags(v, 'input.attributes')),
    enrollmentMethod: opt(input.enrollmentMethod, (m) => ({ ott: m.ott })),
  });
}

/** `modelType` decides between bind attributes + serverEgress and edgeRouterHosts. */
function modelBody(input: CreateV2ServiceInput): JsonObject {
  const m = input.model;
  const field = 'input.model';
  const model: JsonObject = present({
    clientIngress: hostPort(m.clientIngress, `${field}.clientIngress`),
    edgeRouterAttributes: opt(m.edgeRouterAttributes, (v) => selectors(v, `${field}.edgeRouterAttributes`)),
  });
  const absent = (key: 'bindEndpointAttributes' | 'serverEgress' | 'edgeRouterHosts') => {
    if (m[key] !== undefined && m[key] !== null) throw bad(`${field}.${key}`, `must be absent for modelType ${input.modelType}`);
  };
  switch (input.modelType) {
    case 'TunnelerToEndpoint': {
      absent('edgeRouterHosts');
      const bind = m.bindEndpointAttributes ?? [];
      if (bind.length === 0) throw bad(`${field}.bindEndpointAttributes`, 'must list at least one role attribute for modelType TunnelerToEndpoint');
      if (m.serverEgress === undefined || m.serverEgress === null) throw bad(`${field}.serverEgress`, 'is required for modelType TunnelerToEndpoint');
      model['bindEndpointAttributes'] = selectors(bind, `${field}.bindEndpointAttributes`);
      model['serverEgress'] = egress(m.serverEgress, `${field}.serverEgress`);
      return model;
    }
    case 'TunnelerToEdgeRouter': {
      absent('bindEndpointAttributes');
      absent('serverEgress');
      const hosts = m.edgeRouterHosts ?? [];
      if (hosts.length === 0) throw bad(`${field}.edgeRouterHosts`, 'must list at least one hosting edge router for modelType TunnelerToEdgeRouter');
      model['edgeRouterHosts'] = hosts.map((h, i) => ({
        edgeRouterId: text(h.edgeRouterId, `${field}.edgeRouterHosts[${i}].edgeRouterId`),
        serverEgress: egress(h.serverEgress, `${field}.edgeRouterHosts[${i}].serverEgress`),
      }));
      return model;
    }
  }
}

export function v2ServiceBody(input: CreateV2ServiceInput): JsonObject {
  return present({
    networkId: text(input.networkId, 'input.networkId'),
    name: text(input.name, 'input.name'),
    encryptionRequired: input.encryptionRequired,
    attributes: opt(input.attributes, (v) => tags(v, 'input.attributes')),
    modelType: input.modelType,
    model: modelBody(input),
  });
}
