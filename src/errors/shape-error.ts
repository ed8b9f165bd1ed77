/** An upstream body that is not the contract's shape: mapped to UPSTREAM_BAD_RESPONSE, never sent on. */
export class ShapeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ShapeError';
  }
}
