/**
 * What the HTTP door reads itself (and hands to the pipeline) and what it leaves to Apollo Server
 * to refuse in its words: a request is read only when Apollo would read it and it names a document.
 */
import { getParams, postParams } from '../../../src/doors/http-params';

const PERSISTED = { persistedQuery: { version: 1, sha256Hash: 'a'.repeat(64) } };

describe('a JSON POST body', () => {
  it.each([
    ['a document', { query: '{ a }' }, { query: '{ a }', operationName: null, variables: null, extensions: null }],
    ['a persisted query alone (its document is the pipeline\'s question)', { extensions: PERSISTED }, { query: undefined, operationName: null, variables: null, extensions: PERSISTED }],
    ['every field, nulls allowed', { query: '{ a }', operationName: 'A', variables: { x: 1 }, extensions: null }, { query: '{ a }', operationName: 'A', variables: { x: 1 }, extensions: null }],
  ])('reads %s', (_name, body, params) => {
    expect(postParams(body)).toEqual(params);
  });

  it.each([
    ['a batch', [{ query: '{ a }' }]],
    ['no document and no persisted query', { operationName: 'A' }],
    ['an empty document', { query: '' }],
    ['a query that is not text', { query: 5 }],
    ['variables as a JSON string', { query: '{ a }', variables: '{"x":1}' }],
    ['extensions that are a list', { query: '{ a }', extensions: [] }],
    ['an operation name that is not text', { query: '{ a }', operationName: 1 }],
  ])('leaves %s to Apollo', (_name, body) => {
    expect(postParams(body)).toBeNull();
  });
});

describe("a GET's query string", () => {
  const search = (fields: Record<string, string>): string => `?${new URLSearchParams(fields).toString()}`;

  it('reads the document, the name and the JSON parameters', () => {
    expect(getParams(search({ query: '{ a }', operationName: 'A', variables: '{"x":1}', extensions: JSON.stringify(PERSISTED) }), undefined)).toEqual({ query: '{ a }', operationName: 'A', variables: { x: 1 }, extensions: PERSISTED });
    expect(getParams(search({ extensions: JSON.stringify(PERSISTED) }), 'application/json; charset=utf-8')).toMatchObject({ extensions: PERSISTED });
  });

  it.each([
    ['a parameter given twice', '?query=%7B%20a%20%7D&query=%7B%20b%20%7D', undefined],
    ['variables that are not JSON', '?query=%7B%20a%20%7D&variables=%7B', undefined],
    ['variables that are JSON but no object', '?query=%7B%20a%20%7D&variables=null', undefined],
    ['a content type other than JSON', '?query=%7B%20a%20%7D', 'text/plain'],
    ['no document and no persisted query', '?operationName=A', undefined],
  ])('leaves %s to Apollo', (_name, query, contentType) => {
    expect(getParams(query, contentType)).toBeNull();
  });
});
