/** The re-entrant query that must be refused before it runs (unit and integration tests share it). */

/** The re-entrant cycle endpoints → AppWANs → endpoints → … */
export const CYCLE_QUERY =
  '{ networks(first:1000){ nodes { endpoints(first:1000) { nodes { appWans { nodes { endpoints(first:1000) { nodes { appWans { nodes { endpoints(first: 1000) { nodes { id name } } } } } } } } } } } } }';
