import { TRPCError } from '@trpc/server';
import { TRPCClientError } from '@trpc/client';
import { ZodError } from 'zod';
import { isErrorCode, type ErrorCode } from '@vrs/contracts';
import type { Request, Response } from 'express';
import { AppError, appErrorOfServiceCall, createLogger, requestLogFields } from '@vrs/kit';
import { sendError } from './envelope';

export type FieldCodes = Record<string, { missing?: ErrorCode; invalid?: ErrorCode }>;

function validationError(zodError: ZodError, input: unknown, fieldCodes: FieldCodes = {}): AppError {
  const issues = zodError.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }));
  // Some fields have codes of their own (QUERY_REQUIRED for a missing `q`, PROVIDER_NOT_SUPPORTED...).
  for (const [field, codes] of Object.entries(fieldCodes)) {
    const fieldIssue = issues.find((issue) => issue.path === field);
    if (fieldIssue === undefined) continue;
    const value = (input as Record<string, unknown> | undefined)?.[field];
    const blank = value === undefined || (typeof value === 'string' && value.trim() === '');
    if (blank && codes.missing) return new AppError(codes.missing, undefined, { issues });
    if (codes.invalid) return new AppError(codes.invalid, `${field}: ${fieldIssue.message}`, { issues });
  }
  // A refinement may name the precise code of its failure (`params.code`, e.g. DUPLICATE_IDS).
  const codeOf = (issue: ZodError['issues'][number]) => (issue.code === 'custom' ? issue.params?.code : undefined);
  const coded = zodError.issues.find((issue) => isErrorCode(codeOf(issue)));
  if (coded) return new AppError(codeOf(coded) as ErrorCode, `${coded.path.join('.')}: ${coded.message}`, { issues });
  const first = issues[0];
  const message = first ? `${first.path || 'body'}: ${first.message}` : 'The request failed validation.';
  return new AppError('VALIDATION_FAILED', message, { issues });
}

/** An error of a service call, as the service described it; a call that never got an answer is a 503. */
export function fromServiceError(error: TRPCClientError<never>): AppError {
  return appErrorOfServiceCall(error) ?? new AppError('SERVICE_UNAVAILABLE', 'A service this operation depends on did not answer.');
}

const codeByTrpcCode: Partial<Record<TRPCError['code'], ErrorCode>> = {
  NOT_FOUND: 'ROUTE_NOT_FOUND',
  UNSUPPORTED_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  PAYLOAD_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  PARSE_ERROR: 'MALFORMED_JSON',
  METHOD_NOT_SUPPORTED: 'METHOD_NOT_ALLOWED',
};

/** Everything a request can fail with, as the one error type the envelope is written from. */
type ErrorContext = { input?: unknown; fieldCodes?: FieldCodes };

export function toAppError(error: unknown, context: ErrorContext = {}): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof TRPCClientError) return fromServiceError(error);
  if (error instanceof TRPCError) {
    const cause = error.cause;
    if (cause instanceof AppError) return cause;
    if (cause instanceof TRPCClientError) return fromServiceError(cause);
    if (cause instanceof ZodError && error.code === 'BAD_REQUEST') return validationError(cause, context.input, context.fieldCodes);
    const code = codeByTrpcCode[error.code];
    if (code) return new AppError(code, code === 'ROUTE_NOT_FOUND' ? undefined : error.message);
  }
  return new AppError('INTERNAL_ERROR');
}

const log = createLogger('gateway');

/** A plain route's failure (a download, a stream), answered in the envelope and logged when it is ours. */
export function sendRouteError(req: Request, res: Response, error: unknown, context: ErrorContext, headers?: Record<string, string>) {
  const appError = toAppError(error, context);
  if (appError.code === 'INTERNAL_ERROR') log.error({ err: error, path: req.path, ...requestLogFields(req) }, 'request failed');
  sendError(res, appError, req.requestId, headers);
}
