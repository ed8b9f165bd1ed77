/**
 * Heavy operations take turns (src/limits/admission.ts): light ones never wait, heavy ones hold
 * one of the slots until their budget finishes, waiters are served oldest first, and a waiter
 * whose budget stops (deadline, client gone) leaves the queue without a slot.
 */
import { HeavyOperationGate } from '../../../src/limits/admission';
import { OperationBudget } from '../../../src/limits/budget';
import type { CostEstimate } from '../../../src/limits/cost';
import { DEFAULT_LIMITS } from '../../../src/limits/limits';
import { Cancellation } from '../../../src/core/cancellation';

const HEAVY: CostEstimate = { nodes: 850_030, upstreamCalls: 2056, depth: 11, aliases: 0 };
const LIGHT: CostEstimate = { nodes: 50, upstreamCalls: 1, depth: 3, aliases: 0 };

function budget(deadlineMs = DEFAULT_LIMITS.budget.deadlineMs): { budget: OperationBudget; request: Cancellation } {
  const request = new Cancellation();
  return { budget: new OperationBudget({ ...DEFAULT_LIMITS.budget, deadlineMs }, request), request };
}

/** Whether `promise` has settled after the microtasks queued so far ran. */
async function settled(promise: Promise<void>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

describe('HeavyOperationGate', () => {
  const gate = (heavyConcurrency = 2): HeavyOperationGate => new HeavyOperationGate({ heavyConcurrency, heavyMinCalls: 100, heavyQueuePerCaller: 64 });

  it('lets light and unpriced operations run at once, holding no slot', () => {
    const g = gate(1);
    for (const estimate of [LIGHT, null]) {
      const { budget: b } = budget();
      expect(g.admit(estimate, b, 'caller')).toBeUndefined();
      expect(b.holdsSlot).toBe(false);
    }
    expect(g.stats()).toEqual({ running: 0, queued: 0 });
  });

  it('counts an operation heavy from HEAVY_OPERATION_MIN_CALLS estimated calls', () => {
    const g = gate();
    expect(g.isHeavy({ ...LIGHT, upstreamCalls: 99 })).toBe(false);
    expect(g.isHeavy({ ...LIGHT, upstreamCalls: 100 })).toBe(true);
    expect(g.isHeavy(null)).toBe(false);
  });

  it('runs as many heavy operations as there are slots; the next waits until one finishes', async () => {
    const g = gate(2);
    const [a, b, c] = [budget().budget, budget().budget, budget().budget];
    expect(g.admit(HEAVY, a, 'caller')).toBeUndefined();
    expect(g.admit(HEAVY, b, 'caller')).toBeUndefined();
    const turn = g.admit(HEAVY, c, 'caller');
    expect(turn).toBeInstanceOf(Promise);
    expect(g.stats()).toEqual({ running: 2, queued: 1 });
    expect(await settled(turn as Promise<void>)).toBe(false);

    a.finish();
    expect(await settled(turn as Promise<void>)).toBe(true);
    expect(c.holdsSlot).toBe(true);
    expect(g.stats()).toEqual({ running: 2, queued: 0 });
    // How long each waited, for the request log: only the one that queued did.
    expect(c.waitedMs).toBeGreaterThan(0);
    expect(a.waitedMs).toBe(0);

    b.finish();
    c.finish();
    expect(g.stats()).toEqual({ running: 0, queued: 0 });
  });

  it('serves waiters oldest first', async () => {
    const g = gate(1);
    const first = budget().budget;
    expect(g.admit(HEAVY, first, 'caller')).toBeUndefined();
    const order: string[] = [];
    const waiters = ['w1', 'w2', 'w3'].map((name) => {
      const b = budget().budget;
      void (g.admit(HEAVY, b, 'caller') as Promise<void>).then(() => {
        order.push(name);
        b.finish();
      });
      return b;
    });
    first.finish();
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual(['w1', 'w2', 'w3']);
    expect(waiters.every((b) => !b.holdsSlot)).toBe(true);
    expect(g.stats()).toEqual({ running: 0, queued: 0 });
  });

  it('gives a slot back once however often the budget finishes', () => {
    const g = gate(1);
    const a = budget().budget;
    expect(g.admit(HEAVY, a, 'caller')).toBeUndefined();
    const b = budget().budget;
    const turn = g.admit(HEAVY, b, 'caller');
    a.finish();
    a.finish();
    expect(g.stats()).toEqual({ running: 1, queued: 0 });
    expect(turn).toBeInstanceOf(Promise);
    b.finish();
    expect(g.stats()).toEqual({ running: 0, queued: 0 });
  });

  it('admits an operation that holds a slot already without taking another', () => {
    const g = gate(1);
    const a = budget().budget;
    expect(g.admit(HEAVY, a, 'caller')).toBeUndefined();
    expect(g.admit(HEAVY, a, 'caller')).toBeUndefined();
    expect(g.stats()).toEqual({ running: 1, queued: 0 });
  });

  it('a waiter whose client goes away leaves the queue without a slot, and the slot goes to the next', async () => {
    const g = gate(1);
    const holder = budget().budget;
    expect(g.admit(HEAVY, holder, 'caller')).toBeUndefined();
    const gone = budget();
    const goneTurn = g.admit(HEAVY, gone.budget, 'caller') as Promise<void>;
    const next = budget().budget;
    const nextTurn = g.admit(HEAVY, next, 'caller') as Promise<void>;
    gone.request.abort();
    expect(await settled(goneTurn)).toBe(true);
    expect(gone.budget.holdsSlot).toBe(false);
    expect(g.stats()).toEqual({ running: 1, queued: 1 });

    holder.finish();
    expect(await settled(nextTurn)).toBe(true);
    expect(next.holdsSlot).toBe(true);
    next.finish();
    expect(g.stats()).toEqual({ running: 0, queued: 0 });
  });

  it('a waiter whose deadline passes runs without a slot and stops with the deadline error', async () => {
    const g = gate(1);
    const holder = budget().budget;
    expect(g.admit(HEAVY, holder, 'caller')).toBeUndefined();
    const { budget: late } = budget(20);
    late.startDeadline();
    await g.admit(HEAVY, late, 'caller');
    expect(late.holdsSlot).toBe(false);
    expect(() => late.check()).toThrow(/ran out of time/);
    expect(late.exceeded?.limit).toBe('deadline');
    expect(g.stats()).toEqual({ running: 1, queued: 0 });
    holder.finish();
  });

  it('a budget crossed while running keeps its slot until the operation finishes', () => {
    const g = gate(1);
    const { budget: b } = budget();
    expect(g.admit(HEAVY, b, 'caller')).toBeUndefined();
    expect(() => {
      for (;;) b.spendCall();
    }).toThrow(/upstream calls/);
    expect(b.holdsSlot).toBe(true);
    expect(g.stats().running).toBe(1);
    b.finish();
    expect(g.stats().running).toBe(0);
  });
});
