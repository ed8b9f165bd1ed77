/**
 * A credential's own read of a target, before a shared poller serves it anything. A poller polls
 * with one credential; the platform decides per credential (a down-scoped token of the same
 * person may be refused a network the first token reads), so a second credential is served only
 * once the platform has answered it for this target itself. The read is an ordinary poll of the
 * kind, failures decided as the poller decides them: a refusal (`fail`) rejects at once; a
 * transient error is tried again up to `maxErrors`; a kind's `wait` (a key not registered yet)
 * waits. An `emit` is no answer for this credential: it rejects with the original error.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { nextPause } from './backoff';
import { classifyPollError } from './errors';
import type { PollerSettings, PollKind, PollOwner } from './types';

export async function admissionRead<T, V, S>(kind: PollKind<T, V, S>, target: T, owner: PollOwner<S>, settings: PollerSettings, signal: AbortSignal): Promise<V> {
  const startedAt = Date.now();
  let polls = 0;
  let errorsInARow = 0;
  let pause = settings.intervalMs;
  for (;;) {
    polls += 1;
    try {
      return await kind.poll(target, owner.session(signal), signal);
    } catch (error) {
      if (signal.aborted) throw error;
      // `last: null`: what the poller saw with another credential says nothing about this one.
      const decision = kind.classifyError?.(error, { polls, elapsedMs: Date.now() - startedAt, last: null }, target) ?? classifyPollError(error);
      if (decision.action === 'fail') throw decision.error;
      if (decision.action === 'emit') throw error;
      if (decision.action === 'retry' && (errorsInARow += 1) >= settings.maxErrors) throw error;
      pause = nextPause(pause, decision.action === 'retry' ? 'error' : 'unchanged', settings);
      await sleep(pause, undefined, { signal });
    }
  }
}
