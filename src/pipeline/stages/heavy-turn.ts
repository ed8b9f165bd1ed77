/**
 * "Heavy turn": an operation priced as heavy waits for its turn (src/limits/admission.ts), fair
 * per verified identity, so one caller's expensive queries never starve the others; everything
 * else goes on without a hop. The time waited goes to the log line.
 */
import { shareKeyOf } from '../../core/caller';
import type { HeavyOperationGate } from '../../limits/admission';
import type { Stage } from './stage';
import { verifyCaller } from './verify-caller';

export function heavyTurn(gate: HeavyOperationGate): Stage {
  return {
    name: 'heavy turn',
    wrap: (next) => async (run) => {
      const budget = run.context?.budget;
      if (!budget) return next(run);
      const heavy = gate.isHeavy(run.estimate);
      // The turn is keyed by the verified identity: a token the platform refuses reserves nothing.
      if (heavy) await verifyCaller(run.caller);
      const turn = gate.admit(run.estimate, budget, heavy ? shareKeyOf(run.caller) : '');
      if (turn) await turn;
      run.record.waitedMs = budget.waitedMs;
      return next(run);
    },
  };
}
