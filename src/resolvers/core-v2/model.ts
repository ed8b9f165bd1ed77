/**
 * A v2 service's `model` (free-form JSON on the wire; its shape depends on `modelType`)
 * read leniently into the shape the schema shows: absent lists are empty, odd values null.
 */
import { Fields, isObject, type JsonObject } from '../../core/parse';

export interface HostPortRecord {
  host: string | null;
  port: number | null;
}
export interface ServerEgressRecord extends HostPortRecord {
  protocol: string | null;
}
export interface EdgeRouterHostRecord {
  edgeRouterId: string | null;
  serverEgress: ServerEgressRecord | null;
}
export interface ServiceModelRecord {
  clientIngress: HostPortRecord | null;
  edgeRouterAttributes: string[];
  bindEndpointAttributes: string[];
  serverEgress: ServerEgressRecord | null;
  edgeRouterHosts: EdgeRouterHostRecord[];
}

function hostPort(value: JsonObject | null): HostPortRecord | null {
  if (value === null) return null;
  const f = new Fields(value, 'hostPort');
  return { host: f.str('host'), port: f.int('port') };
}

function egress(value: JsonObject | null): ServerEgressRecord | null {
  const hp = hostPort(value);
  return hp === null || value === null ? null : { ...hp, protocol: new Fields(value, 'serverEgress').str('protocol') };
}

export function serviceModel(model: unknown): ServiceModelRecord {
  const f = new Fields(isObject(model) ? model : {}, 'model');
  const hosts = f.raw('edgeRouterHosts');
  return {
    clientIngress: hostPort(f.object('clientIngress')),
    edgeRouterAttributes: f.strList('edgeRouterAttributes'),
    bindEndpointAttributes: f.strList('bindEndpointAttributes'),
    serverEgress: egress(f.object('serverEgress')),
    edgeRouterHosts: (Array.isArray(hosts) ? hosts : []).filter(isObject).map((h) => {
      const hf = new Fields(h, 'edgeRouterHost');
      return { edgeRouterId: hf.str('edgeRouterId'), serverEgress: egress(hf.object('serverEgress')) };
    }),
  };
}
