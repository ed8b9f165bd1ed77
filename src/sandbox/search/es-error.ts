/**
 * Errors in the search service's own body shape (Elasticsearch style), not the Spring shape of
 * the REST areas: `{ error: { root_cause: [{ type, reason }], type, reason }, status }`.
 */
export class EsError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    readonly reason: string,
  ) {
    super(reason);
    this.name = 'EsError';
  }

  body(): { error: { root_cause: { type: string; reason: string }[]; type: string; reason: string }; status: number } {
    return { error: { root_cause: [{ type: this.type, reason: this.reason }], type: this.type, reason: this.reason }, status: this.status };
  }
}

export function parsingError(reason: string): EsError {
  return new EsError(400, 'parsing_exception', reason);
}

export function illegalArgument(reason: string): EsError {
  return new EsError(400, 'illegal_argument_exception', reason);
}
