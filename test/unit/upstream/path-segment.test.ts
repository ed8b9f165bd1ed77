/** Ids into upstream paths (src/upstream/path-segment.ts): one segment, or BAD_USER_INPUT. */
import { BadInputError } from '../../../src/errors/codes';
import { segment } from '../../../src/upstream/path-segment';

describe('segment', () => {
  it('encodes an id as one segment', () => {
    expect(segment('6d3a1f0e-0b4c-4b7a-9e55-2f6a1d1c0a11')).toBe('6d3a1f0e-0b4c-4b7a-9e55-2f6a1d1c0a11');
    expect(segment('name with space?#')).toBe('name%20with%20space%3F%23');
  });

  it.each(['', '.', '..', 'a/b', 'a\\b', 'x%2Fy', '%2e%2e', 'a\u0000b', 'line\nbreak'])('refuses %j as BAD_USER_INPUT naming the field', (id) => {
    expect(() => segment(id, 'networkId')).toThrow(BadInputError);
    try {
      segment(id, 'networkId');
    } catch (error) {
      expect(error).toMatchObject({ code: 'BAD_USER_INPUT', field: 'networkId' });
    }
  });
});
