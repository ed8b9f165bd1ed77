/**
 * "Account": the outermost stage. Every answer passes it: an error a later stage threw becomes the
 * operation's refusal, and the log line, metrics and trace are written once the answer is known
 * (a subscription's when its stream ends, by the `subscribe` stage; an answer in parts when its
 * last part was read or its client left).
 */
import { refusal, isStream, whenEnded, type Stage } from './stage';

export const account: Stage = {
  name: 'account',
  wrap: (next) => async (run) => {
    let outcome;
    try {
      outcome = await next(run);
    } catch (error) {
      outcome = refusal(run.record, [error]);
    }
    if (isStream(outcome)) {
      // Its status is the one of an answer with data (HTTP: 200, the parts' own).
      return outcome.incremental ? whenEnded(outcome, () => run.record.finish(run.options.statusOf?.({ result: {}, requestError: false }))) : outcome;
    }
    run.record.finish(run.options.statusOf?.(outcome));
    return outcome;
  },
};
