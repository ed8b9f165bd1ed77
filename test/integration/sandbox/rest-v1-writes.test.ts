import type { RestV1Facts, RunningSandbox } from '../../../src/sandbox';
import { at, call, firstNetwork, str, withSandbox } from './sandbox-client';

let sandbox: RunningSandbox;
let facts: RestV1Facts;

beforeAll(async () => {
  sandbox = await withSandbox();
  facts = sandbox.restFacts();
});
afterAll(() => sandbox.close());

/** One write the network-management API offers: what to send, and the success status it answers. */
interface Write {
  method: 'POST' | 'PUT' | 'DELETE';
  path: () => string;
  body?: () => unknown;
  raw?: { text: () => string; contentType: string };
  status: number;
  /** Keeps an id from the answer for later rows. */
  keep?: (json: unknown) => void;
}

describe('rest/v1 every write of the operation table', () => {
  it('answers the status of the table to every POST, PUT and DELETE, in the usual creation order', async () => {
    const org = facts.organizationIds[0] ?? '';
    const seeded = firstNetwork(facts);
    const ids: Record<string, string> = {};
    const id = (name: string): string => ids[name] ?? `missing-${name}`;
    const keep = (name: string, ...path: Array<string | number>) => (json: unknown): void => {
      ids[name] = str(at(json, ...path, 'id'));
    };
    const n = (): string => `/rest/v1/networks/${id('network')}`;
    const endpoint = { name: 'w-gw', endpointType: 'GW' };
    const service = (): unknown => ({ name: 'w-svc', serviceClass: 'CS', networkIp: '10.0.0.1', networkFirstPort: 80, networkLastPort: 80, endpointId: id('endpoint') });
    const subscription = { name: 'w-sub', subscriptionId: 's', tenantId: 't', applicationId: 'a', applicationKey: 'k' };
    const template = { name: 'w-template', gatewayVolumeSize: 8 };
    const pem = '-----BEGIN CERTIFICATE-----\nAA==\n-----END CERTIFICATE-----';

    const writes: Write[] = [
      { method: 'POST', path: () => '/rest/v1/networks', body: () => ({ name: 'w-net' }), status: 202, keep: keep('network') },
      { method: 'PUT', path: n, body: () => ({ name: 'w-net-2' }), status: 200 },
      { method: 'POST', path: () => `/rest/v1/organizations/${org}/networks`, raw: { text: () => 'network: { name: w-yaml }\n', contentType: 'application/x-yaml' }, status: 202, keep: keep('yamlNetwork', 'network') },
      { method: 'PUT', path: () => `/rest/v1/organizations/${org}`, body: () => ({ name: 'Acme' }), status: 202 },
      { method: 'POST', path: () => '/rest/v1/networkConfigMetadata', body: () => template, status: 202, keep: keep('template') },
      { method: 'PUT', path: () => `/rest/v1/networkConfigMetadata/${id('template')}`, body: () => ({ ...template, gatewayVolumeSize: 9 }), status: 202 },
      { method: 'DELETE', path: () => `/rest/v1/networkConfigMetadata/${id('template')}`, status: 202 },
      { method: 'POST', path: () => `${n()}/endpoints`, body: () => endpoint, status: 202, keep: keep('endpoint') },
      { method: 'POST', path: () => `${n()}/endpoints`, raw: { text: () => 'NAME,ENDPOINTTYPE\nw-client,ZTCL\nw-bridge,ZTGW\n', contentType: 'text/csv' }, status: 202, keep: keep('client', 'endpoints', 0) },
      { method: 'PUT', path: () => `${n()}/endpoints/${id('endpoint')}`, body: () => ({ ...endpoint, clientMfaEnable: 'NO' }), status: 202 },
      { method: 'POST', path: () => `${n()}/services`, body: service, status: 202, keep: keep('service') },
      { method: 'POST', path: () => `${n()}/services`, raw: { text: () => 'NAME,TYPE,PROTOCOLSTRING,IPADDRESSSTRING,PORTRANGE,ENDPOINT\nw-csv-svc,CS,TCP,10.0.0.2,443,w-gw\n', contentType: 'text/csv' }, status: 202 },
      { method: 'PUT', path: () => `${n()}/services/${id('service')}`, body: () => ({ ...(service() as object), networkLastPort: 81 }), status: 202 },
      { method: 'POST', path: () => `${n()}/appWans`, body: () => ({ name: 'w-appwan' }), status: 202, keep: keep('appWan') },
      { method: 'PUT', path: () => `${n()}/appWans/${id('appWan')}`, body: () => ({ name: 'w-appwan-2' }), status: 200 },
      { method: 'POST', path: () => `${n()}/endpointGroups`, body: () => ({ name: 'w-group' }), status: 201, keep: keep('group') },
      { method: 'PUT', path: () => `${n()}/endpointGroups/${id('group')}`, body: () => ({ name: 'w-group-2' }), status: 200 },
      { method: 'POST', path: () => `${n()}/endpointGroups/${id('group')}/endpoints`, body: () => ({ ids: [id('client')] }), status: 202 },
      { method: 'POST', path: () => `${n()}/appWans/${id('appWan')}/endpoints`, body: () => ({ ids: [id('client')] }), status: 202 },
      { method: 'POST', path: () => `${n()}/appWans/${id('appWan')}/endpointGroups`, body: () => ({ ids: [id('group')] }), status: 202 },
      { method: 'POST', path: () => `${n()}/appWans/${id('appWan')}/services`, body: () => ({ ids: [id('service')] }), status: 202 },
      { method: 'DELETE', path: () => `${n()}/appWans/${id('appWan')}/endpoints`, body: () => ({ ids: [id('client')] }), status: 202 },
      { method: 'DELETE', path: () => `${n()}/appWans/${id('appWan')}/endpointGroups`, body: () => ({ ids: [id('group')] }), status: 202 },
      { method: 'DELETE', path: () => `${n()}/appWans/${id('appWan')}/services`, body: () => ({ ids: [id('service')] }), status: 202 },
      { method: 'DELETE', path: () => `${n()}/endpointGroups/${id('group')}/endpoints`, body: () => ({ ids: [id('client')] }), status: 202 },
      { method: 'DELETE', path: () => `${n()}/endpointGroups/${id('group')}`, status: 202 },
      { method: 'POST', path: () => `${n()}/gatewayClusters`, body: () => ({ name: 'w-cluster' }), status: 202, keep: keep('cluster') },
      { method: 'PUT', path: () => `${n()}/gatewayClusters/${id('cluster')}`, body: () => ({ name: 'w-cluster-2' }), status: 202 },
      { method: 'DELETE', path: () => `${n()}/gatewayClusters/${id('cluster')}`, status: 202 },
      { method: 'POST', path: () => `${n()}/cas`, body: () => ({ name: 'w-ca', certPem: pem }), status: 201, keep: keep('ca') },
      { method: 'PUT', path: () => `${n()}/cas/${id('ca')}`, body: () => ({ name: 'w-ca', certPem: pem }), status: 201 },
      { method: 'POST', path: () => `${n()}/cas/${id('ca')}/verify`, status: 200 },
      { method: 'DELETE', path: () => `${n()}/cas/${id('ca')}`, status: 200 },
      { method: 'POST', path: () => '/rest/v1/azureSubscriptions', body: () => subscription, status: 200, keep: keep('subscription') },
      { method: 'PUT', path: () => `/rest/v1/azureSubscriptions/${id('subscription')}`, body: () => ({ ...subscription, name: 'w-sub-2' }), status: 202 },
      { method: 'POST', path: () => `/rest/v1/azureSubscriptions/${id('subscription')}/virtualWanSites`, body: () => ({ name: 'w-site', endpointId: id('endpoint') }), status: 200, keep: keep('site') },
      { method: 'DELETE', path: () => `/rest/v1/azureSubscriptions/${id('subscription')}/virtualWanSites/${id('site')}`, status: 202 },
      { method: 'DELETE', path: () => `/rest/v1/azureSubscriptions/${id('subscription')}`, status: 202 },
      { method: 'POST', path: () => `/rest/v1/elastic/ncentityevent/${org}/_search/`, body: () => ({ size: 1 }), status: 200 },
      { method: 'DELETE', path: () => `${n()}/services/${id('service')}`, status: 202 },
      { method: 'DELETE', path: () => `${n()}/appWans/${id('appWan')}`, status: 202 },
      { method: 'DELETE', path: () => `${n()}/endpoints/${id('endpoint')}`, status: 202 },
      { method: 'DELETE', path: n, status: 202 },
      { method: 'DELETE', path: () => `/rest/v1/networks/${id('yamlNetwork')}`, status: 202 },
      // And on a seeded network, whose entities are provisioned.
      { method: 'PUT', path: () => `/rest/v1/networks/${seeded.id}/endpoints/${seeded.endpointIds[4] ?? ''}`, body: () => ({ name: 'w-seeded', endpointType: 'ZTCL' }), status: 202 },
    ];
    for (const w of writes) {
      const path = w.path();
      const r = w.raw !== undefined
        ? await call(sandbox, w.method, path, { rawBody: w.raw.text(), contentType: w.raw.contentType })
        : await call(sandbox, w.method, path, w.body === undefined ? {} : { body: w.body() });
      expect([w.method, path, r.status, r.status >= 400 ? r.text : '']).toEqual([w.method, path, w.status, '']);
      w.keep?.(r.json);
    }
  });
});
