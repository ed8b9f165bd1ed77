import { parseCsv, readCsvRows } from '../../../src/sandbox/rest-v1/csv';
import { collection, readSort } from '../../../src/sandbox/rest-v1/hal';

describe('rest/v1 CSV reader', () => {
  it('handles quotes, doubled quotes, commas in quotes, CRLF and a missing final newline', () => {
    expect(parseCsv('a,"b,c","say ""hi"""\r\n1,2,3')).toEqual([['a', 'b,c', 'say "hi"'], ['1', '2', '3']]);
  });

  it('keys rows by uppercased headings, skips blank lines and numbers rows as file lines', () => {
    const rows = readCsvRows('name, EndpointType\n\nx,GW\n', ['NAME', 'ENDPOINTTYPE'], ['NAME']);
    expect(rows).toEqual([{ row: 3, values: new Map([['NAME', 'x'], ['ENDPOINTTYPE', 'GW']]) }]);
  });

  it('rejects empty files, files without data rows and unterminated quotes', () => {
    expect(() => readCsvRows('', ['NAME'], ['NAME'])).toThrow(/empty/);
    expect(() => readCsvRows('NAME\n', ['NAME'], ['NAME'])).toThrow(/no data rows/);
    expect(() => readCsvRows('NAME\n"x', ['NAME'], ['NAME'])).toThrow(/unterminated/);
  });
});

describe('rest/v1 HAL collections', () => {
  const items = Array.from({ length: 45 }, (_, i) => ({ id: `id-${String(i).padStart(2, '0')}`, name: `n${44 - i}`, status: i % 3 }));
  const page = (query: string): Record<string, unknown> =>
    collection(items, {
      origin: 'http://h',
      path: '/things',
      plural: 'things',
      query: new URLSearchParams(query),
      sortable: new Set(['id', 'name', 'status']),
      paginated: true,
      fields: (item) => item,
      render: (item) => ({ ...item }),
    });

  it('defaults to page 0 of 20 and builds absolute page links', () => {
    const c = page('');
    expect(c['page']).toEqual({ number: 0, size: 20, totalElements: 45, totalPages: 3 });
    expect(c['_links']).toEqual({
      self: { href: 'http://h/rest/v1/things?page=0&size=20' },
      first: { href: 'http://h/rest/v1/things?page=0&size=20' },
      last: { href: 'http://h/rest/v1/things?page=2&size=20' },
      next: { href: 'http://h/rest/v1/things?page=1&size=20' },
    });
  });

  it('clamps size to 200 and sorts by several keys', () => {
    expect(page('size=1000')['page']).toEqual({ number: 0, size: 200, totalElements: 45, totalPages: 1 });
    const sorted = page('sort=status,DESC&sort=id,asc&size=3');
    expect(sorted['_embedded']).toEqual({ things: [expect.objectContaining({ id: 'id-02' }), expect.objectContaining({ id: 'id-05' }), expect.objectContaining({ id: 'id-08' })] });
  });

  it('reads sort directions ASC, DESC and the des spelling; rejects unknown fields and directions', () => {
    const allowed = new Set(['name']);
    expect(readSort(new URLSearchParams('sort=name,des'), allowed)).toEqual([{ field: 'name', desc: true }]);
    expect(readSort(new URLSearchParams('sort=name'), allowed)).toEqual([{ field: 'name', desc: false }]);
    expect(() => readSort(new URLSearchParams('sort=other,ASC'), allowed)).toThrow(expect.objectContaining({ status: 400 }));
    expect(() => readSort(new URLSearchParams('sort=name,UP'), allowed)).toThrow(expect.objectContaining({ status: 400 }));
  });
});
