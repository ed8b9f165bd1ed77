/**
 * What the pipeline needs of an automatic-persisted-query store: documents by their SHA-256. The
 * stores themselves (in memory, or shared through Redis) live in src/state and are chosen at
 * start-up; the pipeline never knows which.
 */
/**
 * Who registers a document: a verified identity's key, null for nobody, or a way to learn it that a
 * store calls only when it needs to know (a shared store; verifying costs a call to the platform).
 */
export type Registrant = string | null | (() => Promise<string | null>);

export interface PersistedQueryStore {
  /** The document registered under `sha256Hex`; null when unknown (or expired). */
  get(sha256Hex: string): Promise<string | null>;
  /**
   * Registers `query` under its hash (a document over the size cap is not kept). `registeredBy`
   * is the verified caller that sent it (its identity, never a credential): null (anonymous)
   * keeps the registration in this process only.
   */
  set(sha256Hex: string, query: string, registeredBy: Registrant): Promise<void>;
}
