/**
 * Asks the platform who a token belongs to: `GET /identity/v1/organization` with the token, through
 * the HTTP layer like every other call (outside the caller's quota: it is the gateway's check, not
 * the caller's work). A 401 is the platform refusing the token; a 403 or 404 means it names no
 * organization for it; anything else (5xx, timeout, reset, a body that is not an organization) is
 * not a verdict and is thrown.
 */
import type { Identification } from '../../core/verify';
import { UpstreamError } from '../../errors/codes';
import type { HttpLayer } from '../http';
import { IdentityV1Client } from './client';

export async function identifyCaller(http: HttpLayer, authorization: string): Promise<Identification> {
  const client = new IdentityV1Client(http.forCaller({ authorization, signal: new AbortController().signal, unmetered: true }));
  try {
    const organization = await client.myOrganization();
    return { organizationId: organization.id };
  } catch (error) {
    const status = error instanceof UpstreamError ? error.upstream.status : null;
    if (status === 401 || status === 403 || status === 404) return { refused: status };
    throw error;
  }
}
