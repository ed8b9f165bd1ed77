/**
 * One upstream call whose body goes through a parser: a body that is not the contract's shape
 * (`ShapeError`) becomes UPSTREAM_BAD_RESPONSE on the field that needed it, naming the call.
 * Shared by the clients (rest/v1, core/v2, search).
 */
import { UpstreamError } from '../errors/codes';
import type { HttpClient, UpstreamRequest, UpstreamResponse } from './http-types';
import { ShapeError } from '../errors/shape-error';

export async function readBody<T>(http: HttpClient, request: UpstreamRequest, what: string, parse: (res: UpstreamResponse) => T): Promise<T> {
  const res = await http.send(request);
  try {
    return parse(res);
  } catch (err) {
    if (!(err instanceof ShapeError)) throw err;
    const path = request.path.split('?', 1)[0] ?? request.path;
    throw new UpstreamError('UPSTREAM_BAD_RESPONSE', `${what} answered a body that is not the contract's shape (${err.message})`, { service: request.service, method: request.method, path, status: res.status }, { cause: err });
  }
}
