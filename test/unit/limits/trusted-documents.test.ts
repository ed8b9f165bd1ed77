import { ManifestError, parseManifest, sha256 } from '../../../src/persisted/trusted-documents';

describe('trusted documents manifest', () => {
  it('reads a plain { hash: document } map', () => {
    const trusted = parseManifest(JSON.stringify({ [sha256('{ a }')]: '{ a }' }), true);
    expect(trusted.get(sha256('{ a }'))).toBe('{ a }');
    expect(trusted.size).toBe(1);
  });

  it('refuses an id that is not the SHA-256 of its document', () => {
    expect(() => parseManifest(JSON.stringify({ [sha256('{ a }')]: '{ b }' }), true)).toThrow(ManifestError);
  });
});
