/** identity/v1 client: the caller's organization (the only identity/v1 read in the contract). */
import { ShapeError } from '../../errors/shape-error';
import { UpstreamError } from '../../errors/codes';
import type { HttpClient } from '../http-types';
import { parseOrganization, type OrganizationRecord } from './records';

export class IdentityV1Client {
  constructor(private readonly http: HttpClient) {}

  async myOrganization(): Promise<OrganizationRecord> {
    const path = '/organization';
    const res = await this.http.send({ service: 'identity-v1', method: 'GET', path });
    try {
      return parseOrganization(res.body);
    } catch (err) {
      if (err instanceof ShapeError) {
        throw new UpstreamError('UPSTREAM_BAD_RESPONSE', err.message, { service: 'identity-v1', method: 'GET', path, status: res.status }, { cause: err });
      }
      throw err;
    }
  }
}
