/**
 * core/v2 seed: networks with edge routers, a policy letting every endpoint use every router,
 * endpoints (the first of each network already enrolled: `jwt` null), one service per model type
 * and an AppWAN. Seeded records were created long ago, so they read PROVISIONED and have no
 * execution. Bodies go through the same readers as creates, so seeds obey the same rules.
 */
import { ADMIN_IDENTITY_ID } from '../core/identities';
import type { AreaContext, SeedSize } from '../core/types';
import { Input, type JsonMap } from '../auth/input';
import { kindOf, type V2KindName } from './kinds';
import { V2Store } from './store';
import { enrollmentToken } from './views';

const PROFILES: Record<SeedSize, { networks: number; routers: number; endpoints: number }> = {
  tiny: { networks: 1, routers: 2, endpoints: 3 },
  demo: { networks: 2, routers: 3, endpoints: 8 },
  large: { networks: 5, routers: 10, endpoints: 100 },
};
const AGE_MS = 30 * 86_400_000;
const TEAMS = ['#engineering', '#finance', '#sales', '#support', '#ops'];

export function seedV2(ctx: AreaContext, size: SeedSize): V2Store {
  const store = new V2Store();
  const profile = PROFILES[size];
  const createdAt = ctx.clock.now() - AGE_MS;
  const add = (kind: V2KindName, body: JsonMap, jwt: string | null = null): string => {
    const id = ctx.uuid();
    store.add({ id, kind, data: kindOf(kind).read(new Input(body), store), createdBy: ADMIN_IDENTITY_ID, createdAt, updatedAt: createdAt, executionId: null, jwt });
    return id;
  };
  for (let n = 0; n < profile.networks; n++) {
    const networkId = add('network', { name: n === 0 ? 'v2-production' : `v2-network-${n + 1}`, locationCode: ['us-east-1', 'eu-west-1', 'ap-south-1'][n % 3] });
    const routers: string[] = [];
    for (let r = 0; r < profile.routers; r++) {
      routers.push(add('edgeRouter', { networkId, name: `router-${r + 1}`, attributes: r === 0 ? ['#public', '#hosting'] : ['#public'], linkListener: r === 0 }));
    }
    add('edgeRouterPolicy', { networkId, name: 'all-endpoints-all-routers', endpointAttributes: ['#all'], edgeRouterAttributes: ['#all'] });
    for (let e = 0; e < profile.endpoints; e++) {
      const team = TEAMS[e % TEAMS.length] ?? '#engineering';
      const attributes = e === 1 ? ['#hosting', '#servers'] : [team, '#employees'];
      const id = ctx.uuid();
      const jwt = e === 0 ? null : enrollmentToken(id, ctx.uuid(), createdAt + AGE_MS * 2);
      store.add({
        id,
        kind: 'endpoint',
        data: kindOf('endpoint').read(new Input({ networkId, name: `endpoint-${e + 1}`, attributes, enrollmentMethod: { ott: true } }), store),
        createdBy: ADMIN_IDENTITY_ID,
        createdAt,
        updatedAt: createdAt,
        executionId: null,
        jwt,
      });
    }
    add('service', {
      networkId,
      name: 'wiki',
      attributes: ['#intranet'],
      modelType: 'TunnelerToEndpoint',
      model: { clientIngress: { host: 'wiki.internal', port: 443 }, edgeRouterAttributes: ['#all'], bindEndpointAttributes: ['#hosting'], serverEgress: { protocol: 'tcp', host: '10.0.0.20', port: 443 } },
    });
    add('service', {
      networkId,
      name: 'crm',
      attributes: ['#intranet'],
      modelType: 'TunnelerToEdgeRouter',
      model: { clientIngress: { host: 'crm.internal', port: 443 }, edgeRouterHosts: [{ edgeRouterId: routers[0], serverEgress: { protocol: 'tcp', host: '10.0.0.30', port: 8443 } }] },
    });
    add('appWan', { networkId, name: 'employees-intranet', serviceAttributes: ['#intranet'], endpointAttributes: ['#employees'] });
  }
  return store;
}
