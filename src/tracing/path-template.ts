/**
 * An upstream path as a template for span names and attributes: the segments that name one record
 * (ids, encoded names, anything with a digit) read `{id}`, so spans group by route and carry no
 * identifiers. `/rest/v1/networks/1f0e…/endpoints` → `/rest/v1/networks/{id}/endpoints`.
 */
const VERSION = /^v\d+$/;
const WORD = /^[A-Za-z_-]{1,64}$/;

export function pathTemplate(path: string): string {
  return path
    .split('/')
    .map((segment) => (segment === '' || VERSION.test(segment) || WORD.test(segment) ? segment : '{id}'))
    .join('/');
}
