/** Shapes from issue #10 that must be refused before they run (unit and integration tests share them). */

/** The issue's query, verbatim: the re-entrant cycle endpoints → AppWANs → endpoints → … */
export const ISSUE_QUERY =
  '{ networks(first:1000){ nodes { endpoints(first:1000) { nodes { appWans { nodes { endpoints(first:1000) { nodes { appWans { nodes { endpoints(first: 1000) { nodes { id name } } } } } } } } } } } } }';
