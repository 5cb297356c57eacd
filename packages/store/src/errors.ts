/** A write clashed with `_id` or a unique index; same code as MongoDB's E11000. */
export class DuplicateKeyError extends Error {
  readonly code = 11000;

  constructor(
    message: string,
    readonly keyPattern?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'DuplicateKeyError';
  }
}
