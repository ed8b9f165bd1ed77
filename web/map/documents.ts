/**
 * Every GraphQL operation the map page sends. graphql-codegen's client preset (codegen.yml) reads
 * these `graphql(…)` calls and types each one from the schema into `./gql/`, so a schema change
 * that breaks the page fails `npm run typecheck`.
 */
import { graphql } from './gql';

export const MAP_NETWORKS = graphql(`
  query mapNetworks {
    networks(first: 1000) {
      nodes {
        id
        name
        statusName
      }
    }
  }
`);

export const MAP_RESOURCE = graphql(`
  fragment MapResource on NetworkResourceState {
    kind
    id
    name
    status
    statusName
    endpointType
    currentStateName
    serviceClass
    endpointId
    gatewayClusterId
  }
`);

/** The network, live: the first event draws the map, each later one moves what changed. */
export const MAP_NETWORK_CHANGES = graphql(`
  subscription mapNetworkChanges($networkId: UUID!) {
    networkChanges(networkId: $networkId) {
      networkId
      snapshot
      networkDeleted
      inProgress
      observedAt
      network {
        id
        name
        statusName
      }
      added {
        ...MapResource
      }
      removed {
        kind
        id
        name
      }
      changed {
        before {
          statusName
          name
        }
        after {
          ...MapResource
        }
      }
      membershipsAdded {
        appWanId
        memberKind
        memberId
      }
      membershipsRemoved {
        appWanId
        memberKind
        memberId
      }
    }
  }
`);

export const MAP_WORKFLOW = graphql(`
  subscription mapWorkflow($businessKey: String!) {
    workflow(businessKey: $businessKey) {
      processDefinitionKey
      state
      done
      steps {
        task
        status
      }
    }
  }
`);

/** What the page reads back from an AppWAN member change: the workflow's key and the AppWAN's new status. */
export const MAP_APP_WAN_CHANGE = graphql(`
  fragment MapAppWanChange on AppWanChangePayload {
    accepted
    businessKey
    appWan {
      id
      status
      statusName
    }
  }
`);

export const MAP_AUTHORIZE_ENDPOINT = graphql(`
  mutation mapAuthorizeEndpoint($networkId: UUID!, $id: UUID!, $ids: [UUID!]!) {
    addAppWanEndpoints(networkId: $networkId, id: $id, input: { ids: $ids }) {
      ...MapAppWanChange
    }
  }
`);

export const MAP_CREATE_SERVICE = graphql(`
  mutation mapCreateService($networkId: UUID!, $input: CreateServiceInput!) {
    createService(networkId: $networkId, input: $input) {
      accepted
      id
      service {
        id
        name
        status
        statusName
        serviceClass
        endpointId
        gatewayClusterId
      }
    }
  }
`);

export const MAP_ADD_SERVICE = graphql(`
  mutation mapAddService($networkId: UUID!, $id: UUID!, $ids: [UUID!]!) {
    addAppWanServices(networkId: $networkId, id: $id, input: { ids: $ids }) {
      ...MapAppWanChange
    }
  }
`);
