/* eslint-disable */
import * as types from './graphql';
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';

/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "\n  query mapNetworks {\n    networks(first: 1000) {\n      nodes {\n        id\n        name\n        statusName\n      }\n    }\n  }\n": typeof types.MapNetworksDocument,
    "\n  fragment MapResource on NetworkResourceState {\n    kind\n    id\n    name\n    status\n    statusName\n    endpointType\n    currentStateName\n    serviceClass\n    endpointId\n    gatewayClusterId\n  }\n": typeof types.MapResourceFragmentDoc,
    "\n  subscription mapNetworkChanges($networkId: UUID!) {\n    networkChanges(networkId: $networkId) {\n      networkId\n      snapshot\n      networkDeleted\n      inProgress\n      observedAt\n      network {\n        id\n        name\n        statusName\n      }\n      added {\n        ...MapResource\n      }\n      removed {\n        kind\n        id\n        name\n      }\n      changed {\n        before {\n          statusName\n          name\n        }\n        after {\n          ...MapResource\n        }\n      }\n      membershipsAdded {\n        appWanId\n        memberKind\n        memberId\n      }\n      membershipsRemoved {\n        appWanId\n        memberKind\n        memberId\n      }\n    }\n  }\n": typeof types.MapNetworkChangesDocument,
    "\n  subscription mapWorkflow($businessKey: String!) {\n    workflow(businessKey: $businessKey) {\n      processDefinitionKey\n      state\n      done\n      steps {\n        task\n        status\n      }\n    }\n  }\n": typeof types.MapWorkflowDocument,
    "\n  fragment MapAppWanChange on AppWanChangePayload {\n    accepted\n    businessKey\n    appWan {\n      id\n      status\n      statusName\n    }\n  }\n": typeof types.MapAppWanChangeFragmentDoc,
    "\n  mutation mapAuthorizeEndpoint($networkId: UUID!, $id: UUID!, $ids: [UUID!]!) {\n    addAppWanEndpoints(networkId: $networkId, id: $id, input: { ids: $ids }) {\n      ...MapAppWanChange\n    }\n  }\n": typeof types.MapAuthorizeEndpointDocument,
    "\n  mutation mapCreateService($networkId: UUID!, $input: CreateServiceInput!) {\n    createService(networkId: $networkId, input: $input) {\n      accepted\n      id\n      service {\n        id\n        name\n        status\n        statusName\n        serviceClass\n        endpointId\n        gatewayClusterId\n      }\n    }\n  }\n": typeof types.MapCreateServiceDocument,
    "\n  mutation mapAddService($networkId: UUID!, $id: UUID!, $ids: [UUID!]!) {\n    addAppWanServices(networkId: $networkId, id: $id, input: { ids: $ids }) {\n      ...MapAppWanChange\n    }\n  }\n": typeof types.MapAddServiceDocument,
};
const documents: Documents = {
    "\n  query mapNetworks {\n    networks(first: 1000) {\n      nodes {\n        id\n        name\n        statusName\n      }\n    }\n  }\n": types.MapNetworksDocument,
    "\n  fragment MapResource on NetworkResourceState {\n    kind\n    id\n    name\n    status\n    statusName\n    endpointType\n    currentStateName\n    serviceClass\n    endpointId\n    gatewayClusterId\n  }\n": types.MapResourceFragmentDoc,
    "\n  subscription mapNetworkChanges($networkId: UUID!) {\n    networkChanges(networkId: $networkId) {\n      networkId\n      snapshot\n      networkDeleted\n      inProgress\n      observedAt\n      network {\n        id\n        name\n        statusName\n      }\n      added {\n        ...MapResource\n      }\n      removed {\n        kind\n        id\n        name\n      }\n      changed {\n        before {\n          statusName\n          name\n        }\n        after {\n          ...MapResource\n        }\n      }\n      membershipsAdded {\n        appWanId\n        memberKind\n        memberId\n      }\n      membershipsRemoved {\n        appWanId\n        memberKind\n        memberId\n      }\n    }\n  }\n": types.MapNetworkChangesDocument,
    "\n  subscription mapWorkflow($businessKey: String!) {\n    workflow(businessKey: $businessKey) {\n      processDefinitionKey\n      state\n      done\n      steps {\n        task\n        status\n      }\n    }\n  }\n": types.MapWorkflowDocument,
    "\n  fragment MapAppWanChange on AppWanChangePayload {\n    accepted\n    businessKey\n    appWan {\n      id\n      status\n      statusName\n    }\n  }\n": types.MapAppWanChangeFragmentDoc,
    "\n  mutation mapAuthorizeEndpoint($networkId: UUID!, $id: UUID!, $ids: [UUID!]!) {\n    addAppWanEndpoints(networkId: $networkId, id: $id, input: { ids: $ids }) {\n      ...MapAppWanChange\n    }\n  }\n": types.MapAuthorizeEndpointDocument,
    "\n  mutation mapCreateService($networkId: UUID!, $input: CreateServiceInput!) {\n    createService(networkId: $networkId, input: $input) {\n      accepted\n      id\n      service {\n        id\n        name\n        status\n        statusName\n        serviceClass\n        endpointId\n        gatewayClusterId\n      }\n    }\n  }\n": types.MapCreateServiceDocument,
    "\n  mutation mapAddService($networkId: UUID!, $id: UUID!, $ids: [UUID!]!) {\n    addAppWanServices(networkId: $networkId, id: $id, input: { ids: $ids }) {\n      ...MapAppWanChange\n    }\n  }\n": types.MapAddServiceDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 *
 *
 * @example
 * ```ts
 * const query = graphql(`query GetUser($id: ID!) { user(id: $id) { name } }`);
 * ```
 *
 * The query argument is unknown!
 * Please regenerate the types.
 */
export function graphql(source: string): unknown;

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query mapNetworks {\n    networks(first: 1000) {\n      nodes {\n        id\n        name\n        statusName\n      }\n    }\n  }\n"): (typeof documents)["\n  query mapNetworks {\n    networks(first: 1000) {\n      nodes {\n        id\n        name\n        statusName\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment MapResource on NetworkResourceState {\n    kind\n    id\n    name\n    status\n    statusName\n    endpointType\n    currentStateName\n    serviceClass\n    endpointId\n    gatewayClusterId\n  }\n"): (typeof documents)["\n  fragment MapResource on NetworkResourceState {\n    kind\n    id\n    name\n    status\n    statusName\n    endpointType\n    currentStateName\n    serviceClass\n    endpointId\n    gatewayClusterId\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription mapNetworkChanges($networkId: UUID!) {\n    networkChanges(networkId: $networkId) {\n      networkId\n      snapshot\n      networkDeleted\n      inProgress\n      observedAt\n      network {\n        id\n        name\n        statusName\n      }\n      added {\n        ...MapResource\n      }\n      removed {\n        kind\n        id\n        name\n      }\n      changed {\n        before {\n          statusName\n          name\n        }\n        after {\n          ...MapResource\n        }\n      }\n      membershipsAdded {\n        appWanId\n        memberKind\n        memberId\n      }\n      membershipsRemoved {\n        appWanId\n        memberKind\n        memberId\n      }\n    }\n  }\n"): (typeof documents)["\n  subscription mapNetworkChanges($networkId: UUID!) {\n    networkChanges(networkId: $networkId) {\n      networkId\n      snapshot\n      networkDeleted\n      inProgress\n      observedAt\n      network {\n        id\n        name\n        statusName\n      }\n      added {\n        ...MapResource\n      }\n      removed {\n        kind\n        id\n        name\n      }\n      changed {\n        before {\n          statusName\n          name\n        }\n        after {\n          ...MapResource\n        }\n      }\n      membershipsAdded {\n        appWanId\n        memberKind\n        memberId\n      }\n      membershipsRemoved {\n        appWanId\n        memberKind\n        memberId\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription mapWorkflow($businessKey: String!) {\n    workflow(businessKey: $businessKey) {\n      processDefinitionKey\n      state\n      done\n      steps {\n        task\n        status\n      }\n    }\n  }\n"): (typeof documents)["\n  subscription mapWorkflow($businessKey: String!) {\n    workflow(businessKey: $businessKey) {\n      processDefinitionKey\n      state\n      done\n      steps {\n        task\n        status\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment MapAppWanChange on AppWanChangePayload {\n    accepted\n    businessKey\n    appWan {\n      id\n      status\n      statusName\n    }\n  }\n"): (typeof documents)["\n  fragment MapAppWanChange on AppWanChangePayload {\n    accepted\n    businessKey\n    appWan {\n      id\n      status\n      statusName\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation mapAuthorizeEndpoint($networkId: UUID!, $id: UUID!, $ids: [UUID!]!) {\n    addAppWanEndpoints(networkId: $networkId, id: $id, input: { ids: $ids }) {\n      ...MapAppWanChange\n    }\n  }\n"): (typeof documents)["\n  mutation mapAuthorizeEndpoint($networkId: UUID!, $id: UUID!, $ids: [UUID!]!) {\n    addAppWanEndpoints(networkId: $networkId, id: $id, input: { ids: $ids }) {\n      ...MapAppWanChange\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation mapCreateService($networkId: UUID!, $input: CreateServiceInput!) {\n    createService(networkId: $networkId, input: $input) {\n      accepted\n      id\n      service {\n        id\n        name\n        status\n        statusName\n        serviceClass\n        endpointId\n        gatewayClusterId\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation mapCreateService($networkId: UUID!, $input: CreateServiceInput!) {\n    createService(networkId: $networkId, input: $input) {\n      accepted\n      id\n      service {\n        id\n        name\n        status\n        statusName\n        serviceClass\n        endpointId\n        gatewayClusterId\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation mapAddService($networkId: UUID!, $id: UUID!, $ids: [UUID!]!) {\n    addAppWanServices(networkId: $networkId, id: $id, input: { ids: $ids }) {\n      ...MapAppWanChange\n    }\n  }\n"): (typeof documents)["\n  mutation mapAddService($networkId: UUID!, $id: UUID!, $ids: [UUID!]!) {\n    addAppWanServices(networkId: $networkId, id: $id, input: { ids: $ids }) {\n      ...MapAppWanChange\n    }\n  }\n"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;