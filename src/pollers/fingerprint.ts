/**
 * Pollers are shared per owner key: the verified identity's (src/core/caller.ts), never the token.
 * Requests without an Authorization header share the anonymous key (their polls answer 401).
 */
export { ANONYMOUS_KEY as ANONYMOUS } from '../core/caller';
