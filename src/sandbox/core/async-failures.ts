/**
 * Failure injection for asynchronous progress: rules that make the next matching change fail at
 * a step, so tests can see a workflow fail and a resource end in ERROR (the faults in faults.ts
 * only touch HTTP answers). A rule `{ kind?, processDefinition?, atStep = 1, times = 1 }` applies
 * to the next `times` changes that start after it is set and match it:
 *
 * - `kind` alone (or nothing at all: any kind) matches creates and redefines of that kind that
 *   progress: single, CSV and blueprint creates, 202 redefines and AppWAN member changes. Deletes
 *   are matched by their process definition only, so `{ kind: 'endpoint' }` never fails a delete.
 * - `processDefinition` matches the changes with a process of that definition (with `kind`, both
 *   must match).
 *
 * Rules are checked in order; the first matching one applies and loses one of its `times`. What a
 * failure does to processes and entities is the area's business (rest-v1/changes.ts).
 */
import { isRecord } from './faults';
import { HttpError, type AsyncChange, type AsyncChangeKind, type AsyncFailurePlan } from './types';

export interface AsyncFailureRule {
  kind?: AsyncChangeKind;
  processDefinition?: string;
  /** The 1-based step that fails (a step past the last one fails the last). @default 1 */
  atStep?: number;
  /** How many matching changes fail. @default 1 */
  times?: number;
}

export const ASYNC_CHANGE_KINDS: readonly AsyncChangeKind[] = ['network', 'endpoint', 'service', 'appWan'];

export function isAsyncChangeKind(value: unknown): value is AsyncChangeKind {
  return typeof value === 'string' && (ASYNC_CHANGE_KINDS as readonly string[]).includes(value);
}

/** A plan with no rules: every change succeeds (for areas driven without the control). */
export const NO_ASYNC_FAILURES: AsyncFailurePlan = { failingStep: () => null };

const RULE_FIELDS = ['kind', 'processDefinition', 'atStep', 'times'];

interface ActiveRule {
  rule: AsyncFailureRule & { atStep: number };
  remaining: number;
}

export class AsyncFailures implements AsyncFailurePlan {
  private rules: ActiveRule[] = [];

  /** @param processKinds every process definition the areas start, with the kind of entity it changes */
  constructor(private readonly processKinds: Readonly<Record<string, AsyncChangeKind>>) {}

  /**
   * Adds rules after the existing ones. Each is checked again (in-process callers may pass
   * anything) and against the process definitions; all are checked before any is added.
   */
  add(rules: readonly AsyncFailureRule[]): void {
    const checked = parseAsyncFailureRules(rules);
    checked.forEach((rule, i) => this.checkDefinition(rule, `rules[${i}]`));
    for (const rule of checked) this.rules.push({ rule: { ...rule, atStep: rule.atStep ?? 1 }, remaining: rule.times ?? 1 });
  }

  /** The active rules with their defaults filled in and `times` counting what is left. */
  list(): AsyncFailureRule[] {
    return this.rules.map(({ rule, remaining }) => ({ ...rule, times: remaining }));
  }

  clear(): void {
    this.rules = [];
  }

  failingStep(change: AsyncChange): number | null {
    const index = this.rules.findIndex(({ rule }) => matches(rule, change));
    const active = this.rules[index];
    if (active === undefined) return null;
    active.remaining -= 1;
    if (active.remaining <= 0) this.rules.splice(index, 1);
    return active.rule.atStep;
  }

  private checkDefinition(rule: AsyncFailureRule, where: string): void {
    const definition = rule.processDefinition;
    if (definition === undefined) return;
    const of = this.processKinds[definition];
    if (of === undefined) throw new HttpError(400, `${where}: processDefinition must be one of ${Object.keys(this.processKinds).join(', ')}`);
    if (rule.kind !== undefined && of !== rule.kind) {
      throw new HttpError(400, `${where}: processDefinition ${definition} changes kind ${of}, not ${rule.kind}`);
    }
  }
}

/**
 * Reads failure rules from a control-path body (a rule, an array of rules, or `{ rules: [...] }`):
 * their shape and values, 400 naming the field. Whether a processDefinition exists is checked
 * when the rules are added.
 */
export function parseAsyncFailureRules(body: unknown): AsyncFailureRule[] {
  const list: unknown[] = Array.isArray(body) ? body : isRecord(body) && Array.isArray(body['rules']) ? body['rules'] : [body];
  return list.map((item, i) => parseRule(item, `rules[${i}]`));
}

function parseRule(item: unknown, where: string): AsyncFailureRule {
  if (!isRecord(item)) throw new HttpError(400, `${where}: expected an object`);
  const unknown = Object.keys(item).find((key) => !RULE_FIELDS.includes(key));
  if (unknown !== undefined) throw new HttpError(400, `${where}: unknown field ${unknown} (fields: ${RULE_FIELDS.join(', ')})`);
  const rule: AsyncFailureRule = {};
  // null is as good as absent (as in fault rules).
  const [kind, processDefinition, atStep, times] = RULE_FIELDS.map((key) => item[key] ?? undefined);
  if (kind !== undefined) {
    if (!isAsyncChangeKind(kind)) throw new HttpError(400, `${where}: kind must be one of ${ASYNC_CHANGE_KINDS.join(', ')}`);
    rule.kind = kind;
  }
  if (processDefinition !== undefined) {
    if (typeof processDefinition !== 'string' || processDefinition === '') throw new HttpError(400, `${where}: processDefinition must be a process definition name`);
    rule.processDefinition = processDefinition;
  }
  for (const [name, value] of [['atStep', atStep], ['times', times]] as const) {
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) throw new HttpError(400, `${where}: ${name} must be an integer >= 1`);
    rule[name] = value;
  }
  return rule;
}

function matches(rule: AsyncFailureRule, change: AsyncChange): boolean {
  if (rule.kind !== undefined && rule.kind !== change.kind) return false;
  if (rule.processDefinition !== undefined) return rule.processDefinition === change.processDefinition;
  return change.op !== 'delete';
}
