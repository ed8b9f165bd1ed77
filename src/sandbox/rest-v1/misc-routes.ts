/**
 * rest/v1 operations that are neither table rows nor relations: blueprints, network creation
 * from a blueprint, the registration key download, CA verification, a network's configuration
 * template, and the network-event search proxy.
 */
import { HttpError, type SandboxRoute } from '../core/types';
import { findEntity, render, route, type AreaState } from './area-state';
import { appWanBlueprint, createFromBlueprint, networkBlueprint, YAML_MEDIA_TYPE } from './blueprint';
import { timestamp } from './format';
import { requireObject } from './json';
import { resource } from './resources';

/** Each network group's events live in their own index (the search area's convention). */
export const NETWORK_EVENT_INDEX_PREFIX = 'ncentityevent-';

export function miscRoutes(state: AreaState): SandboxRoute[] {
  const network = resource('network');
  const appWan = resource('appWan');
  const endpoint = resource('endpoint');
  const ca = resource('ca');
  const organization = resource('organization');
  const template = resource('networkConfigMetadata');
  const read = (code: string): { code: string; action: 'read' } => ({ code, action: 'read' });
  const write = (code: string): { code: string; action: 'write' } => ({ code, action: 'write' });
  const yamlReply = (text: string, name: string): { status: number; text: string; contentType: string; headers: Record<string, string> } => ({
    status: 200,
    text,
    contentType: YAML_MEDIA_TYPE,
    headers: { 'Content-Disposition': `attachment; filename="${name.replace(/[^\w.-]/g, '_')}.yml"` },
  });

  return [
    route(state, 'GET', '/networks/{networkId}/blueprint', read(network.code), (env) => {
      const entity = findEntity(env, network);
      return yamlReply(networkBlueprint(env, entity), String(entity.data['name']));
    }),
    route(state, 'GET', '/networks/{networkId}/appWans/{appWanId}/blueprint', read(appWan.code), (env) => {
      const entity = findEntity(env, appWan);
      return yamlReply(appWanBlueprint(env, entity), String(entity.data['name']));
    }),
    route(state, 'POST', '/organizations/{organizationId}/networks', write(network.code), (env, req) => {
      const org = findEntity(env, organization);
      const { network: created, process } = createFromBlueprint(env, org.id, req.rawBody);
      return { status: 202, json: { businessKey: process.businessKey, network: render(network, created, req.origin) } };
    }),
    route(state, 'GET', '/networks/{networkId}/endpoints/{endpointId}/downloadRegistrationKey', read(endpoint.code), (env) => {
      const entity = findEntity(env, endpoint);
      const key = entity.data['registrationKey'];
      if (typeof key !== 'string' || key === '') throw new HttpError(404, 'the endpoint has no registration key (already registered)');
      // One line, no trailing newline: enrollment tools read the file verbatim.
      return {
        status: 200,
        text: key,
        contentType: 'application/octet-stream',
        headers: { 'Content-Disposition': `attachment; filename="${String(entity.data['name']).replace(/[^\w.-]/g, '_')}.jwt"` },
      };
    }),
    route(state, 'POST', '/networks/{networkId}/cas/{caId}/verify', write(ca.code), (env, req) => {
      const entity = findEntity(env, ca);
      Object.assign(entity.data, { isVerified: true, updatedAt: timestamp(env.now) });
      return { status: 200, json: { ...render(ca, entity, req.origin), issuerCertificate: entity.data['certPem'] } };
    }),
    route(state, 'GET', '/networks/{networkId}/networkConfigMetadata', read(template.code), (env, req) => {
      const entity = findEntity(env, network);
      const meta = env.store.get('networkConfigMetadata', String(entity.data['networkConfigMetadataId']));
      if (meta === undefined) throw new HttpError(404, 'the network has no configuration template');
      return { status: 200, json: render(template, meta, req.origin) };
    }),
    route(state, 'POST', '/elastic/ncentityevent/{orgId}/_search', read('network-event'), (env, req) => {
      const orgId = env.params['orgId'] ?? '';
      if (env.store.get('organization', orgId) === undefined) throw new HttpError(404, `network group ${orgId} not found`);
      const search = state.search();
      if (search === null) throw new HttpError(503, 'the search service is not available');
      const body = req.rawBody.trim() === '' ? {} : requireObject(req.json, 'search body');
      const result = search.search(`${NETWORK_EVENT_INDEX_PREFIX}${orgId}`, body);
      return { status: result.status, json: result.json };
    }),
  ];
}

