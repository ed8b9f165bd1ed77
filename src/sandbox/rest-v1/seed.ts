/**
 * Deterministic seed data for rest/v1 in three sizes. Everything comes from the area's seeded
 * generator and a fixed base time, so the same size always gives the same ids and names.
 *
 * | size | groups | networks | endpoints | services | AppWANs |
 * |---|---|---|---|---|---|
 * | tiny | 1 | 2 | 6 per network | 3 per network | 2 per network |
 * | demo | 2 | 4 | 40 per network | 15 per network | 5 per network |
 * | large | 2 | 6 | 400 per network | 100 per network | 8 per network |
 *
 * AppWAN members are drawn from a pool of each network's first endpoints, so endpoints belong to
 * several AppWANs (as clients do in practice).
 *
 * `scale` (the benchmark's scale series) multiplies the number of networks; each extra network has
 * the same shape (endpoints, services, AppWANs, endpoint groups), so every per-network record grows
 * with it while the network groups stay. Scale 1 is the table above exactly, and the first networks
 * of any scale are those of scale 1 (the extra ones are generated after them).
 */
import type { AreaContext, SeedSize } from '../core/types';
import { ADMIN_IDENTITY_ID } from '../core/identities';
import { readFields } from './fields';
import { CURRENT_STATE, STATUS, timestamp } from './format';
import type { JsonObject } from './json';
import { PROCESSES } from './processes';
import { registrationKey } from './registration-key';
import { resource } from './resources';
import type { Entity, Store } from './store';

interface SizeProfile {
  groups: number;
  networks: number;
  endpoints: number;
  services: number;
  appWans: number;
  /** Endpoints per AppWAN: [min, max]. */
  appWanEndpoints: [number, number];
  appWanServices: [number, number];
  /** AppWAN members are drawn from this many first endpoints of a network. */
  memberPool: number;
}

const PROFILES: Record<SeedSize, SizeProfile> = {
  tiny: { groups: 1, networks: 2, endpoints: 6, services: 3, appWans: 2, appWanEndpoints: [2, 3], appWanServices: [1, 2], memberPool: 6 },
  demo: { groups: 2, networks: 4, endpoints: 40, services: 15, appWans: 5, appWanEndpoints: [8, 16], appWanServices: [2, 5], memberPool: 30 },
  large: { groups: 2, networks: 6, endpoints: 400, services: 100, appWans: 8, appWanEndpoints: [30, 60], appWanServices: [4, 10], memberPool: 120 },
};

/** Base time of seeded timestamps: fixed, so seeds are identical run to run. */
const BASE_TIME = Date.UTC(2024, 2, 1, 9, 0, 0);

const GEO_REGIONS = ['Americas East', 'Americas West', 'Europe West', 'Europe Central', 'Asia Pacific South', 'Asia Pacific North', 'South America', 'Middle East'];
const DATA_CENTERS: Array<[string, string, string, number]> = [
  ['us-east-1', 'N. Virginia', 'AWS', 0], ['us-west-2', 'Oregon', 'AWS', 1], ['eu-west-1', 'Ireland', 'AWS', 2],
  ['eu-central-1', 'Frankfurt', 'AWS', 3], ['ap-southeast-1', 'Singapore', 'AWS', 4], ['ap-northeast-1', 'Tokyo', 'AWS', 5],
  ['eastus', 'East US', 'AZURE', 0], ['westeurope', 'West Europe', 'AZURE', 2], ['brazilsouth', 'Brazil South', 'AZURE', 6],
  ['us-central1', 'Iowa', 'GCP', 0], ['europe-west3', 'Frankfurt', 'GCP', 3], ['me-central1', 'Doha', 'GCP', 7],
];
const CLIENT_TYPES = ['ZTCL', 'ZTCL', 'ZTCL', 'VCPEGW', 'ZTGW'];
const APP_NAMES = ['crm', 'erp', 'wiki', 'git', 'jira', 'mail', 'files', 'hr', 'billing', 'metrics', 'logs', 'vpn', 'db', 'cache', 'api'];
const TEAM_NAMES = ['engineering', 'finance', 'sales', 'support', 'ops', 'contractors', 'executives', 'marketing', 'legal', 'it'];

export interface RestV1NetworkFacts {
  /** Business key of a completed AppWanUpdate process on the first AppWAN (seeded history). */
  appWanProcessKey: string | null;
  id: string;
  name: string;
  organizationId: string;
  endpointIds: string[];
  serviceIds: string[];
  appWanIds: string[];
  endpointGroupIds: string[];
  gatewayClusterIds: string[];
}

/** Key facts of the seed for tests (`control.describe().areas['rest-v1']`). */
export interface RestV1Facts {
  organizationIds: string[];
  networkIds: string[];
  networkConfigMetadataIds: string[];
  geoRegionIds: string[];
  dataCenterIds: string[];
  cloudSubscriptionIds: string[];
  hostIds: string[];
  counts: Record<string, number>;
  networks: RestV1NetworkFacts[];
}

class Seeder {
  private tick = 0;

  constructor(
    readonly store: Store,
    readonly ctx: AreaContext,
  ) {}

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.ctx.random() * items.length)];
    if (item === undefined) throw new Error('pick from an empty list');
    return item;
  }

  between([min, max]: [number, number]): number {
    return min + Math.floor(this.ctx.random() * (max - min + 1));
  }

  /** A table entity with the row's defaults, server fields from `extra`; no checks (seed data is valid). */
  add(kind: string, input: JsonObject, extra: JsonObject = {}): Entity {
    const spec = resource(kind);
    const stamp = timestamp(BASE_TIME + this.tick++ * 60_000);
    const data = { id: this.ctx.uuid(), ...readFields(spec.fields, input), ...extra, createdAt: stamp, updatedAt: stamp };
    return this.store.insert(kind, data);
  }
}

export function seedRestV1(store: Store, ctx: AreaContext, size: SeedSize, scale = 1): RestV1Facts {
  if (!Number.isInteger(scale) || scale < 1) throw new Error(`sandbox: scale must be a whole number of at least 1, got ${scale}`);
  const profile = { ...PROFILES[size], networks: PROFILES[size].networks * scale };
  const s = new Seeder(store, ctx);
  const owner = { ownerIdentityId: ADMIN_IDENTITY_ID };

  const regions = GEO_REGIONS.map((name) => s.add('geoRegion', { name }));
  const dataCenters = DATA_CENTERS.map(([locationCode, locationName, provider]) => s.add('dataCenter', { locationCode, locationName, provider }));
  const regionOf = (dc: Entity): Entity => regions[DATA_CENTERS[dataCenters.indexOf(dc)]?.[3] ?? 0] ?? s.pick(regions);

  const orgs = Array.from({ length: profile.groups }, (_, i) =>
    s.add('organization', {
      name: i === 0 ? 'Acme Corp' : `Network Group ${i + 1}`,
      organizationShortName: i === 0 ? 'acme' : `group${i + 1}`,
      mfaRequired: i > 0,
      svcEnabled: true,
      cloudaAutoScalingGatewayEnabled: false,
      billingAccountId: ctx.uuid(),
    }, owner),
  );
  const firstOrg = orgs[0];
  if (firstOrg === undefined) throw new Error('seed has no organization');
  const templates = (['small', 'medium', 'large'] as const).map((name, i) =>
    s.add('networkConfigMetadata', {
      name,
      cloudaNetworkControllerSize: ['t3.medium', 'm5.large', 'm5.xlarge'][i],
      cloudaGatewaySize: ['t3.small', 't3.medium', 'm5.large'][i],
      cloudaTransferNodeSize: ['t3.medium', 'm5.large', 'm5.xlarge'][i],
      cloudbTransferNodeSize: ['Standard_B2s', 'Standard_D2s_v3', 'Standard_D4s_v3'][i],
      cloudcTransferNodeSize: ['e2-medium', 'n2-standard-2', 'n2-standard-4'][i],
      clouddTransferNodeSize: ['ecs.t5-lc1m2.small', 'ecs.g6.large', 'ecs.g6.xlarge'][i],
      networkControllerVolumeSize: [20, 40, 80][i],
      transferNodeVolumeSize: [10, 20, 40][i],
      gatewayVolumeSize: [10, 20, 40][i],
    }, { ...owner, organizationId: firstOrg.id }),
  );

  const subscription = s.add('cloudSubscription', {
    name: 'production subscription',
    subscriptionId: ctx.uuid(),
    tenantId: ctx.uuid(),
    applicationId: ctx.uuid(),
    applicationKey: `seeded-secret-${ctx.uuid()}`,
  }, { ...owner, organizationId: firstOrg.id });

  const hosts: Entity[] = [];
  const networks: RestV1NetworkFacts[] = [];
  const world: SeedWorld = { orgs, firstOrg, templates, dataCenters, regionOf, owner, hosts };
  for (let n = 0; n < profile.networks; n++) networks.push(seedNetwork(s, n, profile, world));
  const firstNetwork = networks[0];
  if (firstNetwork !== undefined && firstNetwork.endpointIds[0] !== undefined) {
    s.add('virtualWanSite', {
      name: 'branch-1', endpointId: firstNetwork.endpointIds[0], dataCenterId: dataCenters[6]?.id ?? null,
      cloudbResourceGroupName: 'rg-branches', cloudbVirtualWanId: '/subscriptions/sub/resourceGroups/rg-branches/providers/vwan/vwan-1',
      publicIpAddress: '52.1.2.3',
      bgp: { localPeeringAddress: { ipAddress: '169.254.21.1', asn: 65001 }, neighborPeers: [{ ipAddress: '169.254.21.2', asn: 65515 }],
        bgpPeerWeight: null, deviceLinkSpeed: null, deviceVendor: null, deviceModel: null, advertiseLocal: true, advertisedPrefixes: ['10.0.0.0/16'] },
    }, { cloudbSubscriptionId: subscription.id, networkId: firstNetwork.id });
  }

  const counts: Record<string, number> = {};
  for (const kind of ['organization', 'network', 'endpoint', 'service', 'appWan', 'endpointGroup', 'gatewayCluster', 'host', 'dataCenter', 'geoRegion']) {
    counts[kind] = store.all(kind).length;
  }
  return {
    organizationIds: orgs.map((o) => o.id),
    networkIds: networks.map((x) => x.id),
    networkConfigMetadataIds: templates.map((t) => t.id),
    geoRegionIds: regions.map((r) => r.id),
    dataCenterIds: dataCenters.map((d) => d.id),
    cloudSubscriptionIds: [subscription.id],
    hostIds: hosts.map((h) => h.id),
    counts,
    networks,
  };
}

/** What every network of the seed draws from: groups, templates, data centers; `hosts` collects each network's. */
interface SeedWorld {
  orgs: Entity[];
  firstOrg: Entity;
  templates: Entity[];
  dataCenters: Entity[];
  regionOf(dc: Entity): Entity;
  owner: { ownerIdentityId: string };
  hosts: Entity[];
}

/** Network `n` and everything in it (hosts, endpoints, services, groups, AppWANs, a finished process). */
function seedNetwork(s: Seeder, n: number, profile: SizeProfile, world: SeedWorld): RestV1NetworkFacts {
  const { store, ctx } = s;
  const { orgs, firstOrg, templates, dataCenters, regionOf, owner, hosts } = world;
  const org = orgs[n % orgs.length] ?? firstOrg;
  const template = templates[n % templates.length] ?? s.pick(templates);
  const name = n === 0 ? 'production' : n === 1 ? 'staging' : `network-${n + 1}`;
  const network = s.add('network', {
    name, caName: `${name}-ca`, productFamily: n % 3 === 2 ? 'DVN' : 'SVC_ENABLED', productVersion: '7.3.1',
    officeBreakoutCategory: 'NONE', organizationId: org.id, networkConfigMetadataId: template.id,
  }, { ...owner, status: STATUS.PROVISIONED, provisionedAt: timestamp(BASE_TIME) });
  const networkId = network.id;
  const inNet = { networkId };
  const dc = s.pick(dataCenters);
  const controller = s.add('host', {
    name: `${name}-nc`, role: 'NC', ipAddress: `34.${n + 10}.0.10`, provider: dc.data['provider'], dataCenterId: dc.id,
    networkId, instanceSize: template.data['cloudaNetworkControllerSize'], status: STATUS.PROVISIONED,
  });
  hosts.push(controller, s.add('host', {
    name: `${name}-tn-1`, role: 'TN', ipAddress: `34.${n + 10}.0.20`, provider: dc.data['provider'], dataCenterId: dc.id,
    networkId, instanceSize: template.data['cloudaTransferNodeSize'], status: STATUS.PROVISIONED,
  }));
  s.add('networkControllerHost', { hostId: controller.id, name: `${name}-nc`, ipAddress: controller.data['ipAddress'],
    domainName: `nc-${networkId.slice(0, 8)}.sandbox.example`, port: 443 }, inNet);
  s.add('transferNodePool', { name: `${name}-pool`, dataCenterId: dc.id, nodeCount: 2, provider: dc.data['provider'] }, inNet);
  s.add('ca', { name: `${name}-ca`, certPem: pem(name), isAutoEnrollmentEnabled: false, isOttCaEnrollmentEnabled: true },
    { ...inNet, ...owner, isVerified: true });

  const endpoints: Entity[] = [];
  for (let e = 0; e < profile.endpoints; e++) {
    const gateway = e < 2;
    const type = gateway ? 'GW' : s.pick(CLIENT_TYPES);
    const edc = s.pick(dataCenters);
    const enrolled = gateway || s.ctx.random() < 0.85;
    endpoints.push(s.add('endpoint', {
      name: gateway ? `${name}-gw-${e + 1}` : `${type.toLowerCase()}-${e + 1}`,
      endpointType: type, geoRegionId: regionOf(edc).id, dataCenterId: edc.id, clientMfaEnable: 'NO',
    }, {
      ...inNet, ...owner,
      registrationKey: enrolled ? null : registrationKey(ctx),
      registrationAttemptsLeft: enrolled ? 0 : 5,
      status: enrolled ? STATUS.REGISTERED : STATUS.PROVISIONED,
      currentState: !enrolled ? CURRENT_STATE.REGISTERING : s.ctx.random() < 0.7 ? CURRENT_STATE.ONLINE : CURRENT_STATE.OFFLINE,
      stateLastUpdated: timestamp(BASE_TIME),
    }));
  }
  const cluster = s.add('gatewayCluster', { name: `${name}-ha`, geoRegionId: endpoints[0]?.data['geoRegionId'] }, { ...inNet, ...owner });
  for (const gw of endpoints.slice(0, 2)) gw.data['gatewayClusterId'] = cluster.id;

  const services: Entity[] = [];
  for (let v = 0; v < profile.services; v++) {
    const app = `${APP_NAMES[v % APP_NAMES.length] ?? 'app'}${v >= APP_NAMES.length ? `-${Math.floor(v / APP_NAMES.length) + 1}` : ''}`;
    const port = s.pick([22, 80, 443, 3306, 5432, 8080, 8443]);
    const ip = `10.${n}.${Math.floor(v / 250)}.${(v % 250) + 2}`;
    const viaCluster = v % 5 === 4;
    services.push(s.add('service', {
      name: app, serviceClass: v % 7 === 6 ? 'GW' : 'CS', serviceType: port === 53 ? 'UDP' : 'TCP',
      networkIp: ip, networkFirstPort: port, networkLastPort: port, interceptIp: ip,
      interceptDnsHostname: `${app}.${name}.internal`, interceptDnsPort: 53, interceptFirstPort: port, interceptLastPort: port,
      endpointId: viaCluster ? null : endpoints[v % 2]?.id, gatewayClusterId: viaCluster ? cluster.id : null,
    }, { ...inNet, ...owner, status: STATUS.PROVISIONED }));
  }

  const pool = endpoints.slice(2, 2 + profile.memberPool);
  const groups = TEAM_NAMES.slice(0, Math.max(1, Math.min(3, profile.appWans))).map((team) => {
    const group = s.add('endpointGroup', { name: team }, { ...inNet, ...owner });
    const members = store.groupEndpoints(group.id);
    for (const ep of sample(s, pool, Math.min(pool.length, 3))) members.add(ep.id);
    return group;
  });
  s.add('serviceGroup', { name: `${name}-core`, description: 'core applications', serviceIds: services.slice(0, 3).map((x) => x.id) }, inNet);

  const appWans: Entity[] = [];
  for (let a = 0; a < profile.appWans; a++) {
    const appWan = s.add('appWan', { name: `${TEAM_NAMES[a % TEAM_NAMES.length] ?? 'team'}-apps${a >= TEAM_NAMES.length ? `-${a}` : ''}` },
      { ...inNet, ...owner, status: STATUS.PROVISIONED });
    const members = store.members(appWan.id);
    for (const ep of sample(s, pool, Math.min(pool.length, s.between(profile.appWanEndpoints)))) members.endpoints.add(ep.id);
    for (const sv of sample(s, services, Math.min(services.length, s.between(profile.appWanServices)))) members.services.add(sv.id);
    const group = groups[a % groups.length];
    if (group !== undefined && a % 2 === 0) members.endpointGroups.add(group.id);
    appWans.push(appWan);
  }
  const firstAppWan = appWans[0];
  let appWanProcessKey: string | null = null;
  if (firstAppWan !== undefined) {
    // One finished process per network, so the process lists show something from the start.
    appWanProcessKey = ctx.uuid();
    store.processes.push({
      businessKey: appWanProcessKey,
      processDefinitionKey: 'AppWanUpdate',
      processInstanceId: ctx.uuid(),
      networkId,
      appWanId: firstAppWan.id,
      entityId: firstAppWan.id,
      startedAt: BASE_TIME,
      stepMs: 1000,
      steps: PROCESSES.AppWanUpdate.steps.map((task) => ({ task, calledProcessInstanceId: ctx.uuid() })),
      failedStep: null,
    });
  }
  return {
    appWanProcessKey,
    id: networkId, name, organizationId: org.id,
    endpointIds: endpoints.map((x) => x.id), serviceIds: services.map((x) => x.id), appWanIds: appWans.map((x) => x.id),
    endpointGroupIds: groups.map((x) => x.id), gatewayClusterIds: [cluster.id],
  };
}

/** `count` distinct items, in random order. */
function sample<T>(s: Seeder, items: readonly T[], count: number): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(s.ctx.random() * (i + 1));
    const a = copy[i] as T;
    copy[i] = copy[j] as T;
    copy[j] = a;
  }
  return copy.slice(0, count);
}

function pem(name: string): string {
  const body = Buffer.from(`sandbox certificate authority ${name}`).toString('base64');
  return `-----BEGIN CERTIFICATE-----\n${body}\n-----END CERTIFICATE-----`;
}
