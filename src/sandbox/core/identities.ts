/**
 * The demo identities the sandbox seeds. The auth area grants them their permissions;
 * the core signs demo tokens for them.
 */
export const ADMIN_IDENTITY_ID = '00000000-0000-4000-8000-00000000a001';
export const READER_IDENTITY_ID = '00000000-0000-4000-8000-00000000b001';
/** An identity with a valid token and no grants at all (for 403 tests). */
export const NOBODY_IDENTITY_ID = '00000000-0000-4000-8000-00000000c001';
