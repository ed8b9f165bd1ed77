/**
 * "Operation": the prepared document's own refusal (too large, not valid, not trusted), then the
 * operation picked by `operationName`. Either refusal means nothing of the document ran.
 */
import { GraphQLError } from 'graphql';
import type { Preparer } from '../prepare';
import type { Stage } from './stage';

export function pickOperation(preparer: Pick<Preparer, 'operation'>): Stage {
  return {
    name: 'operation',
    admit(run) {
      if (run.prepared.refusal) {
        run.documentRefused = true;
        return run.prepared.refusal;
      }
      const picked = preparer.operation(run.prepared, run.params.operationName);
      if (picked instanceof GraphQLError) {
        run.documentRefused = true;
        return [picked];
      }
      run.operation = picked;
      run.record.operationName = picked.name;
      run.record.operationType = picked.type;
      return null;
    },
  };
}
