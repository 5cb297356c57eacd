import { initTRPC, TRPCError, type AnyRouter } from '@trpc/server';
import { TRPCClientError } from '@trpc/client';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { z } from 'zod';
import { priceOf, scopesOf, type PriceVariant, type ScopedOperationId } from '@vrs/contracts';
import { AppError, definitionOf, spanOf, proceduresOf, unknownKeys } from '@vrs/kit';
import type { GatewayContext, Principal } from './context';
import { fromServiceError, toAppError, type FieldCodes } from './errors/to-app-error';
import { debitForOperation } from './metering/meter';
import { requireScopes } from './auth/require-scopes';
import { noteOperation } from './edge/request-metrics';

export interface GatewayMeta {
  /** A `publicProcedure`: no credential at all, so no entry in the scope table (`operationScopes`). */
  auth?: 'public';
  /** For a procedure behind a plain route (a download, a stream): the documented operation whose scopes it enforces. */
  operation?: ScopedOperationId;
  /**
   * Input fields whose failures have codes of their own: `missing` when absent or blank (e.g. `q` →
   * QUERY_REQUIRED), `invalid` for any other failure (e.g. `provider` → PROVIDER_NOT_SUPPORTED).
   */
  fieldCodes?: FieldCodes;
  /** For an operation with several priced modes, the variant to reserve; without it, its highest price is reserved. */
  reserveVariant?: (rawInput: Record<string, unknown>) => PriceVariant;
  /**
   * For a read that saved data may answer, the variant it costs then (none for a refresh): a balance
   * short of the full price but covering this one reserves it, and only saved data may answer.
   */
  savedVariant?: (rawInput: Record<string, unknown>) => PriceVariant | undefined;
  /** The operation hands what metering held to a job that settles it when it ends (ADR 0019). */
  handsHoldToJob?: true;
}

const t = initTRPC.context<GatewayContext>().meta<OpenApiMeta<GatewayMeta>>().create({ isDev: false });

/** Each procedure's declared input, by its meta (the one object the router and a middleware both see). */
const inputsByMeta = new WeakMap<object, z.ZodType[]>();

/** The operation whose scopes a procedure enforces: its OpenAPI operation id, or the one it serves. */
export function operationOf(meta: OpenApiMeta<GatewayMeta> | undefined): string | undefined {
  return meta?.openapi?.operationId ?? meta?.operation;
}

/**
 * Records each procedure's declared input, and refuses a procedure that requires a credential but
 * whose operation is not in the scope table: the gateway fails at startup rather than serve it unguarded.
 */
function recordInputs<TRouter extends AnyRouter>(built: TRouter): TRouter {
  for (const [path, procedure] of Object.entries(proceduresOf(built))) {
    const definition = definitionOf(procedure);
    const meta = definition.meta as OpenApiMeta<GatewayMeta> | undefined;
    if (meta) inputsByMeta.set(meta, definition.inputs as z.ZodType[]);
    const needsCredential = definition.middlewares.includes(protectedEdgeFn);
    if (needsCredential && !scopesOf(operationOf(meta) ?? '')) {
      throw new Error(`procedure ${path} (operation ${operationOf(meta) ?? 'unnamed'}) has no entry in operationScopes`);
    }
  }
  return built;
}

/**
 * What the request sent, as one object to parse with the declared input: the raw input, plus the
 * query parameters it does not carry (the REST handler drops empty values and `__proto__`, a plain
 * route may pass only its path) as undefined: absent to every declared field, unknown to a strict
 * object. An operation that takes a body never reads its query: there every query parameter is unknown.
 */
function sentParameters(ctx: GatewayContext, rawInput: unknown): { sent: unknown; ignoredQuery: string[] } {
  const query = new URL(ctx.req.url ?? '/', 'http://gateway.invalid').searchParams;
  const names = [...new Set(query.keys())];
  if (ctx.req.method !== 'GET' && ctx.req.method !== 'DELETE') return { sent: rawInput, ignoredQuery: names };
  const received = typeof rawInput === 'object' && rawInput !== null ? (rawInput as Record<string, unknown>) : {};
  const hidden = names.filter((name) => !Object.hasOwn(received, name));
  if (hidden.length === 0) return { sent: rawInput, ignoredQuery: [] };
  const sent: Record<string, unknown> = Object.create(null);
  for (const name of hidden) sent[name] = undefined;
  return { sent: Object.assign(sent, received), ignoredQuery: [] };
}

type MiddlewareOptions = Parameters<Parameters<typeof t.middleware>[0]>[0];

/**
 * Input is checked before the work and before metering, so a rejected request reserves nothing. Keys
 * no strict object declares (query, body, any depth) are 422 UNKNOWN_PARAMETER, before any other
 * failure. The procedure's own input parser runs again afterwards.
 */
async function checkInput({ ctx, meta, getRawInput }: MiddlewareOptions): Promise<void> {
  const inputs = meta ? inputsByMeta.get(meta) : undefined;
  if (!inputs) return;
  const { sent, ignoredQuery } = sentParameters(ctx, await getRawInput());
  let unknown = ignoredQuery;
  let failure: z.ZodError | undefined;
  for (const input of inputs) {
    const parsed = await input.safeParseAsync(sent);
    if (parsed.success) continue;
    unknown = [...unknown, ...unknownKeys(parsed.error)];
    failure ??= parsed.error;
  }
  if (unknown.length > 0) {
    const unique = [...new Set(unknown)];
    throw new AppError('UNKNOWN_PARAMETER', `Unknown parameter${unique.length > 1 ? 's' : ''}: ${unique.join(', ')}.`, {
      parameters: unique,
    });
  }
  if (failure) throw new TRPCError({ code: 'BAD_REQUEST', message: 'Input validation failed', cause: failure });
}

/** Service errors arrive as tRPC client errors; turn them back into the AppError the service threw. */
function withServiceErrors<R extends { ok: boolean }>(result: R): R {
  if (!result.ok) {
    const cause = (result as unknown as { error: { cause?: unknown } }).error.cause;
    if (cause instanceof TRPCClientError) throw fromServiceError(cause);
  }
  return result;
}

/** The credential, then its scopes, first: a key lacking a scope is 403 whatever its input, and nothing is reserved. */
function authorize({ ctx, meta }: MiddlewareOptions): Principal {
  if (ctx.authError) throw ctx.authError;
  if (!ctx.principal) throw new AppError('UNAUTHENTICATED');
  const required = scopesOf(operationOf(meta) ?? '');
  // recordInputs refused such a procedure at startup; failing closed here too costs nothing.
  if (!required) throw new Error(`operation ${operationOf(meta) ?? 'unnamed'} has no entry in operationScopes`);
  requireScopes(ctx.principal, required);
  return ctx.principal;
}

/** Reserve before the work, settle after it, refund when it fails; figures go to the response headers. */
async function metered<R extends { ok: boolean; error?: unknown }>(
  { ctx, meta, getRawInput }: MiddlewareOptions,
  work: () => Promise<R>,
): Promise<R> {
  const operationId = meta?.openapi?.operationId;
  const rawInput = ((await getRawInput()) ?? {}) as Record<string, unknown>;
  const price = operationId ? priceOf(operationId, meta?.reserveVariant?.(rawInput)) : 0;
  // Without an operation id the price is 0 already; testing it here narrows its type.
  if (!operationId || price === 0 || !ctx.principal) return work();
  const savedVariant = meta?.savedVariant?.(rawInput);
  const savedPrice = savedVariant ? priceOf(operationId, savedVariant) : undefined;
  const debit = await debitForOperation(ctx, ctx.principal.accountId, ctx.creditCalls, operationId, price, savedPrice);
  const result = await work();
  if (result.ok && ctx.credits.heldByJob) debit.handedToJob();
  else if (result.ok) await debit.settle(priceOf(operationId, ctx.credits.variant));
  else {
    await debit.refund();
    const refusal = debit.refusalIfNotSaved(toAppError(result.error));
    if (refusal) throw refusal;
  }
  return result;
}

// Each kind of procedure runs the steps above from one middleware: tRPC copies a call's options twice
// for every middleware it passes through, which on the metered hot path cost more than the steps themselves.

/** Labels the request's metrics with its operation and, with tracing on, names its HTTP span by route and operation (ADR 0102). */
function observeOperation({ ctx, meta }: MiddlewareOptions): void {
  noteOperation(ctx.res, operationOf(meta));
  const span = spanOf(ctx.trace);
  const openapi = meta?.openapi;
  if (!span || !openapi) return;
  const route = `/v1${openapi.path}`;
  span.updateName(`${openapi.method} ${route}`);
  span.setAttributes({ 'http.route': route, 'vrs.operation_id': openapi.operationId });
}

/** No credential (health probes, sign-in): input checked, service errors as the service threw them. */
const publicEdge = t.middleware(async (options) => {
  observeOperation(options);
  await checkInput(options);
  return withServiceErrors(await options.next());
});

/** A credential with its operation's scopes, input checked, then metered around the work. */
const protectedEdgeFn = async (options: MiddlewareOptions) => {
  observeOperation(options);
  const principal = authorize(options);
  await checkInput(options);
  return withServiceErrors(await metered(options, () => options.next({ ctx: { principal } })));
};
const protectedEdge = t.middleware(protectedEdgeFn);

/** `t.router`, recording each procedure's declared input for `checkInput`. */
export const router: typeof t.router = ((procedures: Parameters<typeof t.router>[0]) =>
  recordInputs(t.router(procedures))) as typeof t.router;
export const publicProcedure = t.procedure.use(publicEdge);
/** Operations that need a credential holding the scopes of their operation (`operationScopes`). */
export const protectedProcedure = t.procedure.use(protectedEdge);

/** How a v1 operation is documented; whether it takes a credential follows from its kind below. */
type OperationDocs = Omit<NonNullable<OpenApiMeta['openapi']>, 'protect'>;
/** A documented v1 operation that needs a credential holding its scopes. */
export const protectedOperation = (openapi: OperationDocs) => protectedProcedure.meta({ openapi: { ...openapi, protect: true } });
/** A documented v1 operation that takes no credential at all. */
export const publicOperation = (openapi: OperationDocs) =>
  publicProcedure.meta({ openapi: { ...openapi, protect: false }, auth: 'public' });
