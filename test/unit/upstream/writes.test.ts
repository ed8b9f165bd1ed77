/** The one sender of changes: sent once, how to check an unknown outcome, forgetting only what may have changed. */
import { UpstreamError } from '../../../src/errors/codes';
import type { HttpClient, UpstreamRequest, UpstreamResponse } from '../../../src/upstream/http-types';
import { Writer } from '../../../src/upstream/writes';

class OneAnswer implements HttpClient {
  readonly sent: UpstreamRequest[] = [];
  constructor(private readonly answer: () => UpstreamResponse) {}
  send(request: UpstreamRequest): Promise<UpstreamResponse> {
    this.sent.push(request);
    return Promise.resolve().then(this.answer);
  }
}

const failure = (code: 'UPSTREAM_TIMEOUT' | 'NOT_FOUND', outcomeUnknown: boolean) => () => {
  throw new UpstreamError(code, 'rest-v1 did not answer', { service: 'rest-v1', method: 'POST', path: '/networks', status: null }, { outcomeUnknown });
};

function writer(answer: () => UpstreamResponse) {
  const http = new OneAnswer(answer);
  const forgotten: string[] = [];
  return { http, forgotten, writer: new Writer<string>(http, 'rest-v1', (touched) => forgotten.push(touched)) };
}

const request = { method: 'POST', path: '/networks', json: { name: 'n' } } as const;
const effect = { hint: 'Look for the Network named "n"', touches: 'network' };

it('sends the request once to its service and forgets what it touched after the answer', async () => {
  const w = writer(() => ({ status: 202, headers: { location: '/networks/1' }, body: { id: '1' }, text: '' }));
  await expect(w.writer.send(request, effect)).resolves.toEqual({ status: 202, headers: { location: '/networks/1' }, body: { id: '1' } });
  expect(w.http.sent).toEqual([{ service: 'rest-v1', ...request, change: true }]);
  expect(w.forgotten).toEqual(['network']);
});

it('an unknown outcome: the hint is added, and what it may have touched is forgotten', async () => {
  const w = writer(failure('UPSTREAM_TIMEOUT', true));
  await expect(w.writer.send(request, effect)).rejects.toMatchObject({ outcomeUnknown: true, message: 'rest-v1 did not answer. Look for the Network named "n"' });
  expect(w.http.sent).toHaveLength(1);
  expect(w.forgotten).toEqual(['network']);
});

it('a refused change changed nothing: the error as it came, nothing forgotten', async () => {
  const w = writer(failure('NOT_FOUND', false));
  await expect(w.writer.send(request, effect)).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'rest-v1 did not answer' });
  expect(w.http.sent).toHaveLength(1);
  expect(w.forgotten).toEqual([]);
});
