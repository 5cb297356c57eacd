import { TRPCClientError } from '@trpc/client';
import { initTRPC, TRPCError, type TRPC_ERROR_CODE_KEY } from '@trpc/server';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import { isErrorCode, type ErrorCode } from '@vrs/contracts';
import { ZodError } from 'zod';
import { AppError } from './app-error';
import { createLogger } from './logger';
import { observeProcedureCall } from './metrics';
import { unknownKeys } from './unknown-keys';
import { inSpan, markFailed, requestLogFields, tracingConfigured, type TraceContext, type TraceSpan } from './tracing';

/** Context of every service procedure call, whether it came in-process or over HTTP. */
export interface ServiceContext {
  requestId: string;
  /** Who called: `gateway`, another service's name, `event:<type>`, or a named internal client's name. */
  caller: string;
  /** The service whose router answers (its procedures' metrics name it); unset for a router no host named. */
  service?: string;
  /**
   * Set for a named internal client's call over HTTP (see `internal-clients.ts`): whether its
   * credential allows the procedure at `path`. Unset, every procedure may be called.
   */
  allows?: (path: string, type: 'query' | 'mutation' | 'subscription') => boolean;
  /** Where the call is in its trace, with tracing on; inside a procedure, its own span (ADR 0117). */
  trace?: TraceContext;
  /**
   * With tracing on, the HTTP server span of a request that carries this call and no other (what our
   * services' own clients send): the call takes that span as its own instead of starting a child (ADR 0120).
   */
  requestSpan?: TraceSpan;
}

const trpcCodeByStatus: Record<number, TRPC_ERROR_CODE_KEY> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  402: 'PAYMENT_REQUIRED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_SUPPORTED',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  422: 'UNPROCESSABLE_CONTENT',
  429: 'TOO_MANY_REQUESTS',
  503: 'SERVICE_UNAVAILABLE',
};

/** Wraps an AppError so tRPC carries it with the right transport code. */
export function toTRPCError(error: AppError): TRPCError {
  return new TRPCError({ code: trpcCodeByStatus[error.status] ?? 'INTERNAL_SERVER_ERROR', message: error.message, cause: error });
}

export interface AppErrorData {
  appCode: ErrorCode;
  details?: unknown;
}

/** The code and details a tRPC error carries in its shape, so callers across any link can rebuild the AppError. */
export function appErrorDataOf(error: TRPCError): AppErrorData {
  const cause = error.cause;
  if (cause instanceof AppError) return { appCode: cause.code, details: cause.details };
  if (cause instanceof ZodError) {
    // A key the procedure does not declare is the caller's bug: named, as the gateway names a client's.
    const parameters = unknownKeys(cause);
    if (parameters.length > 0) return { appCode: 'UNKNOWN_PARAMETER', details: { parameters } };
    return {
      appCode: 'VALIDATION_FAILED',
      details: { issues: cause.issues.map(({ path, message, code }) => ({ path: path.join('.'), message, code })) },
    };
  }
  const fromStatus: Partial<Record<TRPC_ERROR_CODE_KEY, ErrorCode>> = {
    NOT_FOUND: 'NOT_FOUND',
    UNAUTHORIZED: 'UNAUTHENTICATED',
    FORBIDDEN: 'FORBIDDEN',
    TOO_MANY_REQUESTS: 'RATE_LIMITED',
    PAYLOAD_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
    METHOD_NOT_SUPPORTED: 'METHOD_NOT_ALLOWED',
    BAD_REQUEST: 'VALIDATION_FAILED',
    PARSE_ERROR: 'MALFORMED_JSON',
  };
  return { appCode: fromStatus[error.code] ?? 'INTERNAL_ERROR' };
}

export function isAppErrorData(value: unknown): value is AppErrorData {
  return typeof value === 'object' && value !== null && isErrorCode((value as { appCode?: unknown }).appCode);
}

const log = createLogger('trpc');

const t = initTRPC.context<ServiceContext>().create({
  isDev: false,
  errorFormatter({ shape, error }) {
    const { stack: _stack, ...data } = shape.data as typeof shape.data & { stack?: string };
    return { ...shape, data: { ...data, ...appErrorDataOf(error) } };
  },
});

/**
 * The AppError a downstream service call failed with (in-process or over HTTP), if it carried one.
 * An unexpected failure keeps the default message: its own words ("database or disk is full", a
 * stack's first line) are in the service's log, not for the caller.
 */
export function appErrorOfServiceCall(error: unknown): AppError | undefined {
  if (!(error instanceof TRPCClientError)) return undefined;
  const data = (error.shape as { data?: unknown } | undefined)?.data ?? error.data;
  if (!isAppErrorData(data)) return undefined;
  return new AppError(data.appCode, data.appCode === 'INTERNAL_ERROR' ? undefined : error.message, data.details);
}

type BoundaryOptions = Parameters<Parameters<typeof t.middleware>[0]>[0];

/** Refuses a named internal client a procedure its credential does not allow (403 FORBIDDEN, appCode INSUFFICIENT_SCOPE). */
function refuseUnallowed({ path, type, ctx }: BoundaryOptions): void {
  if (ctx.allows && !ctx.allows(path, type)) {
    throw toTRPCError(
      new AppError('INSUFFICIENT_SCOPE', `The internal client ${ctx.caller} is not allowed to call ${path}.`, { procedure: path }),
    );
  }
}

/**
 * Runs the procedure (`next`, handed `trace` as its own `ctx.trace` when traced), turns thrown
 * AppErrors into tRPC errors — including one a downstream service answered with and this procedure
 * let through, so a provider's 503 stays a 503 through trends — and logs unexpected failures once,
 * where they happen.
 */
async function bounded({ next, path, ctx }: BoundaryOptions, trace?: TraceContext) {
  const started = performance.now();
  const result = await (trace ? next({ ctx: { trace } }) : next());
  if (!result.ok) {
    const cause = result.error.cause;
    const appError = cause instanceof AppError ? cause : appErrorOfServiceCall(cause);
    if (appError) {
      result.error = toTRPCError(appError);
      // An outage the operator must act on, where it happened (a service passing it on has no cause of its own).
      if (appError === cause && appError.code === 'INSUFFICIENT_STORAGE') {
        log.error({ err: cause.cause ?? cause, path, ...requestLogFields(ctx), caller: ctx.caller }, 'out of storage');
      }
    } else if (result.error.code === 'INTERNAL_SERVER_ERROR') {
      log.error({ err: cause ?? result.error, path, ...requestLogFields(ctx), caller: ctx.caller }, 'procedure failed');
    }
  }
  const outcome = result.ok ? 'ok' : result.error.code;
  observeProcedureCall(ctx.service ?? 'unknown', path, ctx.caller, outcome, (performance.now() - started) / 1000);
  return result;
}

/** The error boundary of every service procedure, untraced. */
const errorBoundary = t.middleware((options) => {
  refuseUnallowed(options);
  return bounded(options);
});

/**
 * Traced, the same boundary inside a server span per procedure call, over HTTP or in process (ADR
 * 0102), under the caller's (`ctx.trace`); the procedure's own `ctx.trace` is this span (ADR 0117).
 * A call alone in its request names that request's HTTP server span and adds its attributes to it
 * rather than starting a child, so each call of our own services is one span (ADR 0120). The span sees
 * what the caller gets, and fails on a 5xx. One middleware, not two: tRPC copies a call's options for
 * every middleware it passes through (ADR 0118). A call refused for its scope never runs, and leaves
 * the request's span as it was.
 */
const tracedErrorBoundary = t.middleware(async (options) => {
  refuseUnallowed(options);
  const { path, type, ctx } = options;
  const attributes = {
    'rpc.system': 'trpc',
    'rpc.method': path,
    'vrs.procedure_type': type,
    'vrs.request_id': ctx.requestId,
    'vrs.caller': ctx.caller,
  };
  const settle = (span: TraceSpan | undefined, result: Awaited<ReturnType<typeof bounded>>) => {
    if (!result.ok && getHTTPStatusCodeFromError(result.error) >= 500) markFailed(span, result.error);
    return result;
  };
  const { requestSpan } = ctx;
  if (requestSpan) {
    requestSpan.updateName(path).setAttributes(attributes);
    return settle(requestSpan, await bounded(options));
  }
  return inSpan(path, { kind: 'server', parent: ctx.trace, attributes }, async (span, trace) =>
    settle(span, await bounded(options, trace)),
  );
});

export const router = t.router;
/** Every service procedure's builder: one middleware, with a span only when tracing is on. */
export const procedure = t.procedure.use(tracingConfigured() ? tracedErrorBoundary : errorBoundary);
export const createCallerFactory = t.createCallerFactory;
