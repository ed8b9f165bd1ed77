/**
 * The areas get their Authz in the AreaContext before the auth area (which owns the grants)
 * exists, so the core hands them this delegate and binds the auth area's Authz afterwards.
 * Until bound, a fixed rule set stands in: admin may do everything, the reader may read the
 * `network` domain except the admin-only resource types, everybody else nothing.
 */
import { ADMIN_IDENTITY_ID, READER_IDENTITY_ID } from './identities';
import { HttpError, type Authz, type Caller } from './types';

/** Resource types of the `network` domain that only the admin may read (see README). */
export const ADMIN_ONLY_NETWORK_TYPES: readonly string[] = ['host', 'network-controller-host', 'cloud-subscription'];

export const fallbackAuthz: Authz = {
  can(caller, domainCode, resourceTypeCode, actionCode) {
    if (caller.identityId === ADMIN_IDENTITY_ID) return true;
    return (
      caller.identityId === READER_IDENTITY_ID &&
      domainCode === 'network' &&
      actionCode === 'read' &&
      !ADMIN_ONLY_NETWORK_TYPES.includes(resourceTypeCode)
    );
  },
  require(caller, domainCode, resourceTypeCode, actionCode) {
    if (!this.can(caller, domainCode, resourceTypeCode, actionCode)) {
      throw new HttpError(403, `not allowed: ${domainCode}/${resourceTypeCode}/${actionCode}`);
    }
  },
};

export class LateAuthz implements Authz {
  private target: Authz = fallbackAuthz;

  bind(target: Authz): void {
    this.target = target;
  }

  can(caller: Caller, domainCode: string, resourceTypeCode: string, actionCode: string): boolean {
    return this.target.can(caller, domainCode, resourceTypeCode, actionCode);
  }

  require(caller: Caller, domainCode: string, resourceTypeCode: string, actionCode: string): void {
    this.target.require(caller, domainCode, resourceTypeCode, actionCode);
  }
}
