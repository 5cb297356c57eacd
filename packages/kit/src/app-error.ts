import { errorCodes, type ErrorCode } from '@vrs/contracts';

/**
 * An error meant for the API's caller: a stable code from the error table, a message a person can
 * act on, and optional details. Services throw it; the gateway turns it into the error envelope.
 */
export class AppError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string = errorCodes[code].message,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'AppError';
    this.status = errorCodes[code].status;
  }
}
