/**
 * A paginated list: a network's endpoints as a Relay `@connection`, paged with
 * `usePaginationFragment` (or, without React, the generated query below with `cursor` set to the
 * last `endCursor`, as test/integration/relay does).
 */
import { graphql } from 'relay-runtime';

export const networkEndpoints = graphql`
  fragment NetworkEndpoints_network on Network
  @refetchable(queryName: "NetworkEndpointsPaginationQuery")
  @argumentDefinitions(count: { type: "Int", defaultValue: 2 }, cursor: { type: "String" }) {
    nodeId
    name
    endpoints(first: $count, after: $cursor) @connection(key: "NetworkEndpoints_endpoints") {
      totalCount
      edges {
        node {
          nodeId
          id
          name
        }
      }
    }
  }
`;
