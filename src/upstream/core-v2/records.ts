/**
 * core/v2 wire records (create inputs as stored, plus what the platform answers besides: `status`
 * words, audit fields, the endpoint's `jwt`). One `{ field: kind }` table per record (record-spec):
 * only `id` is required, anything absent or odd reads as null or `[]`.
 */
import { recordParser, type RecordOf } from '../network/record-spec';

const common = { id: 'id', name: 'str', status: 'str', createdBy: 'str', createdAt: 'str', updatedAt: 'str' } as const;

export const v2NetworkSpec = { ...common, locationCode: 'str', networkConfigMetadataId: 'str', networkGroupId: 'str' } as const;
export const edgeRouterSpec = { ...common, networkId: 'str', attributes: 'strList', dataCenterId: 'str', linkListener: 'bool' } as const;
export const edgeRouterPolicySpec = { ...common, networkId: 'str', endpointAttributes: 'strList', edgeRouterAttributes: 'strList' } as const;
export const v2ServiceSpec = { ...common, networkId: 'str', encryptionRequired: 'bool', attributes: 'strList', modelType: 'str', model: 'json' } as const;
export const v2AppWanSpec = { ...common, networkId: 'str', serviceAttributes: 'strList', endpointAttributes: 'strList' } as const;
export const v2EndpointSpec = { ...common, networkId: 'str', attributes: 'strList', enrollmentMethod: 'json', jwt: 'str' } as const;

export type V2NetworkRecord = RecordOf<typeof v2NetworkSpec>;
export type EdgeRouterRecord = RecordOf<typeof edgeRouterSpec>;
export type EdgeRouterPolicyRecord = RecordOf<typeof edgeRouterPolicySpec>;
export type V2ServiceRecord = RecordOf<typeof v2ServiceSpec>;
export type V2AppWanRecord = RecordOf<typeof v2AppWanSpec>;
export type V2EndpointRecord = RecordOf<typeof v2EndpointSpec>;

export const parseV2Network = recordParser(v2NetworkSpec, 'V2Network');
export const parseEdgeRouter = recordParser(edgeRouterSpec, 'EdgeRouter');
export const parseEdgeRouterPolicy = recordParser(edgeRouterPolicySpec, 'EdgeRouterPolicy');
export const parseV2Service = recordParser(v2ServiceSpec, 'V2Service');
export const parseV2AppWan = recordParser(v2AppWanSpec, 'V2AppWan');
export const parseV2Endpoint = recordParser(v2EndpointSpec, 'V2Endpoint');
