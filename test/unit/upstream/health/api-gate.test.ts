/** One API's breaker and Retry-After window (src/upstream/health/api-gate.ts), on a manual clock. */
import { ApiGate, type BreakerSettings, type Opening } from '../../../../src/upstream/health/api-gate';
import { TestClock } from '../../../helpers/upstream-call';

const SETTINGS: BreakerSettings = { consecutiveFailures: 3, failureRatio: 0.5, minimumCalls: 10, windowMs: 10_000, openMs: 1000, slowCallMs: 0 };

function gate(settings: Partial<BreakerSettings> = {}): { gate: ApiGate; clock: TestClock; opened: Opening[] } {
  const clock = new TestClock();
  const opened: Opening[] = [];
  return { gate: new ApiGate({ ...SETTINGS, ...settings }, clock.now, (o) => opened.push(o)), clock, opened };
}

describe('the API gate', () => {
  it('opens after consecutive failures, fails fast with the time left, probes once, closes on success', () => {
    const { gate: g, clock, opened } = gate();
    for (let i = 0; i < 3; i += 1) g.record('failure', g.admit().pass && false);
    expect(g.current().state).toBe('open');
    expect(opened).toHaveLength(1);
    clock.advance(400);
    expect(g.admit()).toEqual({ pass: false, reason: 'failures', retryAfterMs: 600 });
    clock.advance(600);
    expect(g.admit()).toEqual({ pass: true, probe: true });
    // One probe at a time.
    expect(g.admit().pass).toBe(false);
    g.record('success', true);
    expect(g.current().state).toBe('closed');
    expect(g.admit()).toEqual({ pass: true, probe: false });
  });

  it('opens again for one interval when the probe fails', () => {
    const { gate: g, clock } = gate();
    for (let i = 0; i < 3; i += 1) g.record('failure', false);
    clock.advance(1000);
    expect(g.admit()).toEqual({ pass: true, probe: true });
    g.record('failure', true);
    expect(g.admit()).toMatchObject({ pass: false, retryAfterMs: 1000 });
  });

  it('opens on the failure ratio once the window holds enough calls; never on 4xx (success) or neutral outcomes', () => {
    const { gate: g } = gate({ consecutiveFailures: 100 });
    for (let i = 0; i < 9; i += 1) g.record(i % 2 === 0 ? 'failure' : 'success', false);
    expect(g.current().state).toBe('closed');
    g.record('neutral', false);
    expect(g.current().state).toBe('closed');
    g.record('failure', false);
    expect(g.current().state).toBe('open');
  });

  it('forgets failures that left the window', () => {
    const { gate: g, clock } = gate({ consecutiveFailures: 100, minimumCalls: 4 });
    for (let i = 0; i < 3; i += 1) g.record('failure', false);
    clock.advance(11_000);
    g.record('failure', false);
    g.record('success', false);
    expect(g.current().state).toBe('closed');
  });

  it('holds a Retry-After window with its own reason, not cut short by a breaker opening', () => {
    const { gate: g, clock } = gate();
    g.pause(clock.ms + 5000, 'rate-limited');
    for (let i = 0; i < 3; i += 1) g.record('failure', false);
    expect(g.admit()).toEqual({ pass: false, reason: 'rate-limited', retryAfterMs: 5000 });
    clock.advance(5000);
    expect(g.admit()).toEqual({ pass: true, probe: true });
  });

  it('adopts a longer opening from another replica, and ignores one already over', () => {
    const { gate: g, clock, opened } = gate();
    g.adopt({ until: clock.ms - 1, reason: 'unavailable' });
    expect(g.current().state).toBe('closed');
    g.adopt({ until: clock.ms + 3000, reason: 'unavailable' });
    expect(g.admit()).toEqual({ pass: false, reason: 'unavailable', retryAfterMs: 3000 });
    // Adopted, not announced again.
    expect(opened).toHaveLength(0);
  });
});
