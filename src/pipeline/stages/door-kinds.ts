/**
 * "Door kinds": the kinds of operation the door runs (a subscription over plain HTTP is refused
 * with where to send it), and the one GET rule, the same on every door: a mutation sent by GET is
 * refused as GraphQL over HTTP refuses it (405, `Allow: POST`), since any page can make a browser
 * send a GET cross-site and any proxy may repeat one.
 */
import { GraphQLError } from 'graphql';
import { ErrorCode } from '../../errors/codes';
import type { Stage } from './stage';

function mutationOverGet(): GraphQLError {
  return new GraphQLError('GET requests only support query operations, not mutation operations', {
    extensions: { code: ErrorCode.BAD_REQUEST, http: { status: 405, headers: new Map([['allow', 'POST']]) } },
  });
}

export const doorKinds: Stage = {
  name: 'door kinds',
  admit({ operation, options }) {
    if (!operation) return null;
    if (options.viaGet && operation.type === 'mutation') return [mutationOverGet()];
    if (options.accepts && !options.accepts.has(operation.type)) {
      const where = operation.type === 'subscription' ? ': subscribe over WebSocket or Server-Sent Events' : '';
      return [new GraphQLError(`${operation.type} operations are not run here${where}`, { extensions: { code: ErrorCode.BAD_REQUEST } })];
    }
    return null;
  },
};
