/** Reading a change's answer in every plausible form (the contract does not show it). */
import { businessKeyOf, entitiesOf, entityOf, idOf, type ChangeAnswer } from '../../../src/upstream/network/change-answer';
import { parseAppWan, parseEndpoint } from '../../../src/upstream/network/records';

const answer = (body: unknown, headers: Record<string, string> = {}, status = 202): ChangeAnswer => ({ status, headers, body });
const ID = '6a1f3c1e-1111-4c4c-8888-000000000001';

describe('businessKeyOf', () => {
  it.each([
    ['a top-level body field', answer({ id: ID, businessKey: 'bk-1' })],
    ['a wrapper', answer({ businessKey: 'bk-1', appWan: { id: ID } })],
    ['a process link', answer({ id: ID, _links: { workflowStatus: { href: 'https://api.example/rest/v1/workflow-status/bk-1' } } })],
    ['a network-process link', answer({ id: ID, _links: { process: { href: '/rest/v1/network-processes/bk-1' } } })],
    ['an X-Business-Key header', answer({ id: ID }, { 'x-business-key': 'bk-1' })],
    ['a Location header at a process path', answer(null, { location: '/rest/v1/workflow-status/bk-1' })],
  ])('reads it from %s', (_what, a) => {
    expect(businessKeyOf(a)).toBe('bk-1');
  });

  it('is null when the answer has none (single creates usually do not)', () => {
    expect(businessKeyOf(answer({ id: ID, _links: { self: { href: `/rest/v1/networks/${ID}` } } }))).toBeNull();
    expect(businessKeyOf(answer(null))).toBeNull();
    expect(businessKeyOf(answer('<html>accepted</html>'))).toBeNull();
  });
});

describe('entityOf / entitiesOf / idOf', () => {
  it('takes the body itself, or the wrapper, and nothing from an odd body', () => {
    expect(entityOf(answer({ id: ID, name: 'a' }), 'appWan', parseAppWan)?.name).toBe('a');
    expect(entityOf(answer({ businessKey: 'k', appWan: { id: ID, name: 'b' } }), 'appWan', parseAppWan)?.name).toBe('b');
    expect(entityOf(answer({ businessKey: 'k' }), 'appWan', parseAppWan)).toBeNull();
    expect(entityOf(answer([1, 2]), 'appWan', parseAppWan)).toBeNull();
    expect(entityOf(answer({ id: 42 }), 'appWan', parseAppWan)).toBeNull();
  });

  it('reads bulk answers wrapped, embedded or bare, skipping items that do not parse', () => {
    const items = [{ id: ID, name: 'x' }, { name: 'no id' }];
    expect(entitiesOf(answer({ businessKey: 'k', endpoints: items }), 'endpoints', parseEndpoint).map((e) => e.name)).toEqual(['x']);
    expect(entitiesOf(answer({ _embedded: { endpoints: items } }), 'endpoints', parseEndpoint)).toHaveLength(1);
    expect(entitiesOf(answer(items), 'endpoints', parseEndpoint)).toHaveLength(1);
    expect(entitiesOf(answer(null), 'endpoints', parseEndpoint)).toEqual([]);
  });

  it('finds the id of an answer without an entity in its self link or Location header', () => {
    expect(idOf(answer({ _links: { self: { href: `https://h/rest/v1/networks/${ID}` } } }))).toBe(ID);
    expect(idOf(answer(null, { location: `/rest/v1/networks/${ID}?x=1` }))).toBe(ID);
    expect(idOf(answer(null, { location: '/rest/v1/workflow-status/bk' }))).toBeNull();
  });
});
