/**
 * Mutation inputs → rest/v1 bodies, checked against the network-management API's field rules before any upstream
 * call (a bad input costs zero calls). One spec per kind says what to check; `createBody` and
 * `updateBody` apply it the same way to every kind.
 *
 * Update semantics: a field left out keeps its value, a field set to null is cleared (a field the
 * contract requires cannot be), and `attributes` carries upstream fields the schema does not model.
 * UUID arguments and fields are checked by the UUID scalar already.
 */
import { BadInputError, ErrorCode, GatewayError } from '../../errors/codes';
import { isObject, type JsonObject } from '../../core/parse';
import { normalizeDateTime, upstreamDateTime } from '../common/scalars';

/** Checks one present, non-null value; throws BadInputError naming `field`. */
type Check = (value: unknown, field: string) => void;

export interface InputSpec {
  /** Checks of single fields (by input field name). */
  checks?: Readonly<Record<string, Check>>;
  /** Fields the contract requires: never empty, and an update cannot clear them. */
  required?: readonly string[];
  /** Pairs of which exactly one is set on creation; an update setting one clears the other. */
  exclusive?: readonly [string, string];
  /** Checks across fields of the whole body to send (after an update's changes are applied). */
  record?: (body: JsonObject, field: string) => void;
}

// ---- single-value checks -------------------------------------------------------------------

const bad = (field: string, message: string): BadInputError => new BadInputError(field, `${field} ${message}`);

const text: Check = (value, field) => {
  if (typeof value !== 'string' || value.trim() === '') throw bad(field, 'must not be empty');
};
const token: Check = (value, field) => {
  if (typeof value !== 'string' || !/^[A-Z0-9_]+$/.test(value)) throw bad(field, 'must be uppercase letters, digits or _ without whitespace (e.g. GW, ZTCL)');
};
const intIn = (min: number, max: number): Check => (value, field) => {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) throw bad(field, `must be an integer from ${min} to ${max}`);
};
const port = intIn(0, 65535);
const nonNegative = intIn(0, 2 ** 31 - 1);

const OCTET = '(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const IPV4 = new RegExp(`^${OCTET}(\\.${OCTET}){3}$`);
export function isIpv4(value: string): boolean {
  return IPV4.test(value);
}
export function isCidr(value: string): boolean {
  const [ip = '', bits, extra] = value.split('/');
  return extra === undefined && bits !== undefined && /^\d{1,2}$/.test(bits) && Number(bits) <= 32 && isIpv4(ip);
}
const ipv4: Check = (value, field) => {
  if (typeof value !== 'string' || !isIpv4(value)) throw bad(field, 'must be an IPv4 address (dotted quad)');
};
const cidr: Check = (value, field) => {
  if (typeof value !== 'string' || !isCidr(value)) throw bad(field, 'must be a CIDR block (e.g. 10.0.0.0/24)');
};
const ipOrCidr: Check = (value, field) => {
  if (typeof value !== 'string' || !(isIpv4(value) || isCidr(value))) throw bad(field, 'must be a dotted quad or a CIDR block');
};
const each = (check: Check): Check => (value, field) => {
  if (!Array.isArray(value)) throw bad(field, 'must be a list');
  value.forEach((v, i) => check(v, `${field}[${i}]`));
};
const peer: Check = (value, field) => {
  if (!isObject(value)) throw bad(field, 'must be an object');
  ipv4(value['ipAddress'], `${field}.ipAddress`);
  intIn(1, 4_294_967_294)(value['asn'], `${field}.asn`);
};
const bgp: Check = (value, field) => {
  if (!isObject(value)) throw bad(field, 'must be an object');
  const checks: Record<string, Check> = { localPeeringAddress: peer, neighborPeers: each(peer), advertisedPrefixes: each(cidr), bgpPeerWeight: nonNegative, deviceLinkSpeed: nonNegative };
  for (const [key, check] of Object.entries(checks)) {
    const v = value[key];
    if (v !== undefined && v !== null) check(v, `${field}.${key}`);
  }
};

/** First ≤ last for each port pair present in the body. */
function portOrder(...pairs: ReadonlyArray<readonly [string, string]>): (body: JsonObject, field: string) => void {
  return (body, field) => {
    for (const [first, last] of pairs) {
      const a = body[first];
      const b = body[last];
      if (typeof a === 'number' && typeof b === 'number' && a > b) throw bad(`${field}.${first}`, `(${a}) must not be greater than ${last} (${b})`);
    }
  };
}

// ---- the specs -----------------------------------------------------------------------------

const named: InputSpec = { checks: { name: text }, required: ['name'] };

export const inputSpecs = {
  network: named,
  networkGroup: named,
  endpoint: { checks: { name: text, endpointType: token }, required: ['name', 'endpointType'] },
  service: {
    checks: {
      name: text,
      networkIp: ipOrCidr,
      interceptIp: ipOrCidr,
      gatewayIp: ipv4,
      gatewayCidrBlock: cidr,
      networkFirstPort: port,
      networkLastPort: port,
      interceptFirstPort: port,
      interceptLastPort: port,
      interceptDnsPort: port,
    },
    required: ['name', 'serviceClass'],
    exclusive: ['endpointId', 'gatewayClusterId'],
    record: portOrder(['networkFirstPort', 'networkLastPort'], ['interceptFirstPort', 'interceptLastPort']),
  },
  appWan: named,
  endpointGroup: named,
  gatewayCluster: named,
  certificateAuthority: named,
  networkConfigMetadata: {
    checks: { name: text, networkControllerVolumeSize: nonNegative, transferNodeVolumeSize: nonNegative, gatewayVolumeSize: nonNegative },
    required: ['name'],
  },
  cloudSubscription: {
    checks: { name: text, subscriptionId: text, tenantId: text, applicationId: text, applicationKey: text },
    required: ['name', 'subscriptionId', 'tenantId', 'applicationId', 'applicationKey'],
  },
  virtualWanSite: { checks: { name: text, publicIpAddress: ipv4, bgp }, required: ['name', 'endpointId'] },
} as const satisfies Record<string, InputSpec>;

// ---- applying a spec -----------------------------------------------------------------------

/** Input fields that steer the change and are never sent. */
const CONTROL_FIELDS = new Set(['attributes', 'expectedUpdatedAt']);

/**
 * The caller's fields as a body: present fields checked and copied (null kept: it clears), then
 * `attributes` merged in. Throws BadInputError naming `input.<field>`.
 */
function fieldsOf(input: object, spec: InputSpec, field: string): JsonObject {
  const body: JsonObject = {};
  for (const [key, value] of Object.entries(input)) {
    if (CONTROL_FIELDS.has(key) || value === undefined) continue;
    if (value === null) {
      if (spec.required?.includes(key) === true) throw bad(`${field}.${key}`, 'is required and cannot be cleared');
    } else {
      spec.checks?.[key]?.(value, `${field}.${key}`);
    }
    body[key] = value;
  }
  const attributes: unknown = 'attributes' in input ? input.attributes : undefined;
  if (attributes !== undefined && attributes !== null) {
    if (!isObject(attributes)) throw bad(`${field}.attributes`, 'must be a JSON object');
    for (const [key, value] of Object.entries(attributes)) {
      if (key in body || key === 'id' || key.startsWith('_')) throw bad(`${field}.attributes.${key}`, 'cannot be set through attributes');
      body[key] = value;
    }
  }
  return body;
}

/** The body of a create: every check, every required field, exactly one of an exclusive pair. */
export function createBody(input: object, spec: InputSpec, field = 'input'): JsonObject {
  const body = fieldsOf(input, spec, field);
  for (const key of spec.required ?? []) if (body[key] === undefined || body[key] === null) throw bad(`${field}.${key}`, 'is required');
  if (spec.exclusive !== undefined) {
    const [a, b] = spec.exclusive;
    const set = [a, b].filter((k) => body[k] !== undefined && body[k] !== null);
    if (set.length !== 1) throw bad(`${field}.${a}`, `or ${field}.${b}: exactly one must be given`);
  }
  spec.record?.(body, field);
  return body;
}

/**
 * An update, checked before any call; `apply` then turns the current record into the full body
 * to send (a redefine sends every attribute, not only the changed ones), refusing with CONFLICT when
 * `expectedUpdatedAt` is given and the record changed since.
 */
export function updateBody(input: object, spec: InputSpec, field = 'input'): { apply: (current: JsonObject) => JsonObject } {
  const changes = fieldsOf(input, spec, field);
  if (spec.exclusive !== undefined) {
    const [a, b] = spec.exclusive;
    if (changes[a] != null && changes[b] != null) throw bad(`${field}.${a}`, `and ${field}.${b} cannot both be set`);
    // Setting one side of the pair replaces the other (a service has one terminator).
    if (changes[a] != null) changes[b] = null;
    if (changes[b] != null) changes[a] = null;
  }
  const given: unknown = 'expectedUpdatedAt' in input ? input.expectedUpdatedAt : null;
  const expected = typeof given === 'string' ? given : null;
  return {
    apply(current) {
      if (expected !== null) checkUnchanged(current, expected, `${field}.expectedUpdatedAt`);
      const body = { ...current, ...changes };
      spec.record?.(body, field);
      return body;
    },
  };
}

/** CONFLICT unless the record's `updatedAt` is the instant the caller last saw. */
function checkUnchanged(current: JsonObject, expected: string, field: string): void {
  const actual = upstreamDateTime(current['updatedAt']);
  if (actual === null) {
    throw new GatewayError(ErrorCode.CONFLICT, `${field} cannot be checked: the upstream record has no readable updatedAt; nothing was sent`, field);
  }
  if (actual !== normalizeDateTime(expected)) {
    throw new GatewayError(ErrorCode.CONFLICT, `the record changed since ${expected} (its updatedAt is now ${actual}): read it again and retry; nothing was sent`, field);
  }
}

/** Ids of a member change: at least one, no repeats. */
export function memberIds(ids: readonly string[], field = 'input.ids'): string[] {
  if (ids.length === 0) throw bad(field, 'must hold at least one id');
  const seen = new Set<string>();
  ids.forEach((id, i) => {
    const key = id.toLowerCase();
    if (seen.has(key)) throw bad(`${field}[${i}]`, `repeats ${id}`);
    seen.add(key);
  });
  return [...ids];
}
