import type { TraceContext } from '@vrs/kit';

declare module 'express-serve-static-core' {
  interface Request {
    requestId: string;
    /** With tracing on, the request's HTTP server span, read when it arrives (ADR 0117). */
    trace?: TraceContext;
  }
}
