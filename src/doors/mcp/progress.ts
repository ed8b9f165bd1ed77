/**
 * How far a followed change has come, from one subscription event: for anything with `steps`
 * (a provisioning, a workflow) the steps finished out of all of them; otherwise the events seen.
 * The follow tools send it as MCP progress only when it grew (the specification wants `progress`
 * to increase with each notification).
 */

export interface ProgressReport {
  progress: number;
  total?: number;
  message: string;
}

/** A step that will not change any more: a provisioning step's state, a workflow step's status word. */
function finished(step: Record<string, unknown>): boolean {
  const state = step['state'];
  if (state === 'DONE' || state === 'FAILED') return true;
  const status = step['status'];
  return typeof status === 'string' && /complet|succe|done|finish|fail|error/i.test(status);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The first root field's value of an event (subscriptions have one root field). */
function subject(data: Record<string, unknown> | null | undefined): Record<string, unknown> | null {
  const first = data ? Object.values(data)[0] : undefined;
  return isRecord(first) ? first : null;
}

export function progressOf(data: Record<string, unknown> | null | undefined, events: number): ProgressReport {
  const value = subject(data);
  const state = value ? (value['state'] ?? value['statusName'] ?? value['status']) : undefined;
  const said = typeof state === 'string' ? state : 'event';
  const steps = value?.['steps'];
  if (!Array.isArray(steps) || steps.length === 0) return { progress: events, message: `${said} (event ${events})` };
  const records = steps.filter(isRecord);
  const done = records.filter(finished).length;
  const current = records.find((step) => !finished(step) && (step['state'] === 'RUNNING' || step['status'] !== undefined));
  const now = current ? `; now: ${String(current['description'] ?? current['task'] ?? '')}${typeof current['statusName'] === 'string' ? ` (${current['statusName']})` : ''}` : '';
  return { progress: done, total: steps.length, message: `${said}: ${done}/${steps.length} steps finished${now}` };
}

/** True once the followed change is over (SUCCEEDED or FAILED, or a terminal status). */
export function isFinal(data: Record<string, unknown> | null | undefined): boolean {
  const value = subject(data);
  if (!value) return false;
  return value['done'] === true || value['terminal'] === true || value['state'] === 'SUCCEEDED' || value['state'] === 'FAILED';
}
