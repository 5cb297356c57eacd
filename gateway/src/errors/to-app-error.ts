import { TRPCError } from '@trpc/server';
import { TRPCClientError } from '@trpc/client';
import { ZodError } from 'zod';
import type { ErrorCode } from '@vrs/contracts';
import { AppError, isAppErrorData } from '@vrs/kit';

export interface ValidationIssue {
  path: string;
  message: string;
}

function validationError(zodError: ZodError, input: unknown, blankFieldCodes: Record<string, ErrorCode> = {}): AppError {
  const issues: ValidationIssue[] = zodError.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }));
  // A required field that is missing or blank gets its own code (e.g. QUERY_REQUIRED for `q`).
  for (const [field, code] of Object.entries(blankFieldCodes)) {
    const value = (input as Record<string, unknown> | undefined)?.[field];
    const blank = value === undefined || (typeof value === 'string' && value.trim() === '');
    if (blank && issues.some((issue) => issue.path === field)) return new AppError(code, undefined, { issues });
  }
  const first = issues[0];
  const message = first ? `${first.path || 'body'}: ${first.message}` : 'The request failed validation.';
  return new AppError('VALIDATION_FAILED', message, { issues });
}

/** An error of a service call, as the service described it; a call that never got an answer is a 503. */
export function fromServiceError(error: TRPCClientError<never>): AppError {
  const data = (error.shape as { data?: unknown } | undefined)?.data ?? error.data;
  if (isAppErrorData(data)) return new AppError(data.appCode, error.message, data.details);
  return new AppError('SERVICE_UNAVAILABLE', 'A service this operation depends on did not answer.');
}

const codeByTrpcCode: Partial<Record<TRPCError['code'], ErrorCode>> = {
  NOT_FOUND: 'ROUTE_NOT_FOUND',
  UNSUPPORTED_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  PAYLOAD_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  PARSE_ERROR: 'MALFORMED_JSON',
  METHOD_NOT_SUPPORTED: 'METHOD_NOT_ALLOWED',
};

/** Everything a request can fail with, as the one error type the envelope is written from. */
export function toAppError(error: unknown, context: { input?: unknown; blankFieldCodes?: Record<string, ErrorCode> } = {}): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof TRPCClientError) return fromServiceError(error);
  if (error instanceof TRPCError) {
    const cause = error.cause;
    if (cause instanceof AppError) return cause;
    if (cause instanceof TRPCClientError) return fromServiceError(cause);
    if (cause instanceof ZodError && error.code === 'BAD_REQUEST') return validationError(cause, context.input, context.blankFieldCodes);
    const code = codeByTrpcCode[error.code];
    if (code) return new AppError(code, code === 'ROUTE_NOT_FOUND' ? undefined : error.message);
  }
  return new AppError('INTERNAL_ERROR');
}
