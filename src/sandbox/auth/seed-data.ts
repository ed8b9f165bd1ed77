/**
 * What the auth area seeds, as tables: the domains, their resource-type trees with actions, and
 * which demo identity holds what. Fixed ids for the domains so other parts and tests can name them.
 */

export const AUTH_DOMAIN_ID = '00000000-0000-4000-8000-0000000d0001';
export const NETWORK_DOMAIN_ID = '00000000-0000-4000-8000-0000000d0002';
export const AUTH_DOMAIN_CODE = 'auth';
export const NETWORK_DOMAIN_CODE = 'network';

/** Fully qualified grant class names reported in the `type` field. */
export const SUPER_USER_TYPE = 'io.netgraph.sandbox.auth.grant.SuperUserGrant';
export const PUBLIC_GRANT_TYPE = 'io.netgraph.sandbox.auth.grant.PublicGrant';

export interface TypeSeed {
  code: string;
  name: string;
  actions: readonly string[];
  children?: readonly TypeSeed[];
}

export interface DomainSeed {
  id: string;
  code: string;
  name: string;
  types: readonly TypeSeed[];
}

const rw = ['read', 'write'] as const;
const leaf = (code: string, name: string): TypeSeed => ({ code, name, actions: rw });

/** The auth domain: every operation of auth/v1 is protected by these (the authorization API protects itself with its own model). */
const AUTH_TYPES: readonly TypeSeed[] = [
  {
    code: 'domain',
    name: 'Domain',
    actions: ['read', 'create'],
    children: [
      {
        code: 'resource-type',
        name: 'Resource type',
        actions: ['read', 'create'],
        children: [{ code: 'resource-action', name: 'Resource action', actions: ['read', 'create'] }],
      },
    ],
  },
  { code: 'super-user', name: 'Super user', actions: ['read', 'create', 'delete'] },
  { code: 'public-grant', name: 'Public grant', actions: ['read', 'create', 'delete'] },
  { code: 'masquerade', name: 'Masquerade', actions: ['masquerade'] },
  { code: 'identity-resource-action', name: 'Identity resource action', actions: ['read', 'create', 'delete'] },
];

/** The network domain: the resource types rest/v1 and core/v2 check (`read` / `write`). */
const NETWORK_TYPES: readonly TypeSeed[] = [
  {
    code: 'network-group',
    name: 'Network group',
    actions: rw,
    children: [
      {
        code: 'network',
        name: 'Network',
        actions: rw,
        children: [
          leaf('endpoint', 'Endpoint'),
          leaf('service', 'Service'),
          leaf('app-wan', 'AppWAN'),
          leaf('endpoint-group', 'Endpoint group'),
          leaf('gateway-cluster', 'Gateway cluster'),
          leaf('certificate-authority', 'Certificate authority'),
          leaf('service-group', 'Service group'),
          leaf('transfer-node-pool', 'Transfer node pool'),
          leaf('network-controller-host', 'Network controller host'),
          leaf('virtual-wan-site', 'Virtual WAN site'),
          leaf('process', 'Process'),
          leaf('edge-router', 'Edge router'),
          leaf('edge-router-policy', 'Edge router policy'),
          leaf('network-event', 'Network event'),
        ],
      },
      leaf('cloud-subscription', 'Cloud subscription'),
    ],
  },
  leaf('data-center', 'Data center'),
  leaf('geo-region', 'Geo region'),
  leaf('host', 'Host'),
  leaf('network-config-metadata', 'Network configuration metadata'),
];

export const DOMAIN_SEEDS: readonly DomainSeed[] = [
  { id: AUTH_DOMAIN_ID, code: AUTH_DOMAIN_CODE, name: 'Authorization', types: AUTH_TYPES },
  { id: NETWORK_DOMAIN_ID, code: NETWORK_DOMAIN_CODE, name: 'Network management', types: NETWORK_TYPES },
];

/**
 * Types the reader may NOT read, so the gateway can show FORBIDDEN on one field while the rest
 * of a response is intact. Everything else in the two domains is readable by the reader.
 */
export const READER_EXCLUDED: Readonly<Record<string, readonly string[]>> = {
  [AUTH_DOMAIN_CODE]: ['super-user', 'public-grant'],
  [NETWORK_DOMAIN_CODE]: ['host', 'network-controller-host', 'cloud-subscription'],
};

/** `large` adds this many extra domains, each with a three-level tree of this many types. */
export const LARGE_EXTRA_DOMAINS = 3;
export const LARGE_TYPES_PER_DOMAIN = 30;
