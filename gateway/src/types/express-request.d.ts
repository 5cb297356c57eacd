import type { AppError } from '@vrs/kit';

declare module 'express-serve-static-core' {
  interface Request {
    requestId: string;
    /** The error this request failed with, written into the envelope when the response ends. */
    appError?: AppError;
  }
}
