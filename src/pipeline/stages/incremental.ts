/**
 * "Incremental": whether the operation's answer comes in parts. It does when the operation has an
 * active `@defer`/`@stream` (decided once per prepared operation, then by the run's variables for
 * an `if: $variable`: ../incremental.ts) and the door delivers parts (`RunOptions.incremental`);
 * on a door that does not (JSON-only HTTP, MCP), the whole result comes in one answer, the
 * directives ignored. A mutation with an active directive is refused before anything runs: a change
 * answers whole, once, so that its outcome (and its idempotency key's) is never split between parts
 * a client may leave before reading. A subscription's events are executed whole.
 */
import { GraphQLError } from 'graphql';
import { ErrorCode } from '../../errors/codes';
import { isIncremental, negativeInitialCount } from '../incremental';
import type { Stage } from './stage';

export const DEFERRED_MUTATION_MESSAGE = 'a mutation answers whole: @defer and @stream run in queries only (remove them, or give them `if: false`)';

export const incremental: Stage = {
  name: 'incremental',
  admit(run) {
    const { operation } = run;
    if (!operation || operation.incremental.kind === 'never' || !isIncremental(operation.incremental, run.params.variables)) return null;
    if (operation.type === 'mutation') return [new GraphQLError(DEFERRED_MUTATION_MESSAGE, { extensions: { code: ErrorCode.BAD_REQUEST } })];
    run.incremental = operation.type === 'query' && run.options.incremental === true;
    const negative = run.incremental ? negativeInitialCount(operation.document, run.params.variables) : null;
    if (negative !== null) {
      return [new GraphQLError(`@stream's initialCount is how many items come in the first part: at least 0, not ${negative}`, { extensions: { code: ErrorCode.BAD_USER_INPUT } })];
    }
    return null;
  },
};
