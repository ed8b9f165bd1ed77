/**
 * core/v2 executions: a create's 202 body links to one at `_links.execution.href` (older
 * answers: `_links.process.href`); clients poll it until `status` is FINISHED or SUCCESS
 * (STARTED, RUNNING in progress; FAILED an error).
 */
import { isObject } from '../../core/parse';
import { recordParser, type RecordOf } from '../network/record-spec';
import type { WriteAnswer } from '../writes';

export const executionSpec = { id: 'id', name: 'str', action: 'str', status: 'str', resourceId: 'str', networkId: 'str', createdAt: 'str', updatedAt: 'str', finishedAt: 'str' } as const;
export type V2ExecutionRecord = RecordOf<typeof executionSpec>;
export const parseExecution = recordParser(executionSpec, 'V2Execution');

export type ExecutionState = 'RUNNING' | 'SUCCEEDED' | 'FAILED';

/** FINISHED/SUCCESS succeeded; FAILED (or anything naming a failure or error) failed; the rest runs. */
export function executionState(status: string | null): ExecutionState {
  const word = (status ?? '').toUpperCase();
  if (word === 'FINISHED' || word === 'SUCCESS' || word === 'SUCCEEDED' || word === 'COMPLETED') return 'SUCCEEDED';
  if (/FAIL|ERROR/.test(word)) return 'FAILED';
  return 'RUNNING';
}

/** The execution href of a create's answer: `_links.execution`, else `_links.process`; null without one. */
export function executionHrefOf(answer: WriteAnswer): string | null {
  const body = answer.body;
  if (!isObject(body)) return null;
  const links = body['_links'];
  if (!isObject(links)) return null;
  for (const rel of ['execution', 'process']) {
    const link = links[rel];
    if (isObject(link) && typeof link['href'] === 'string' && link['href'] !== '') return link['href'];
  }
  return null;
}

/** The last path segment of an href (the execution's id). */
export function lastSegment(href: string): string | null {
  const path = href.split(/[?#]/, 1)[0] ?? '';
  const segment = path.split('/').filter((s) => s !== '').pop();
  return segment === undefined ? null : decodeURIComponent(segment);
}
