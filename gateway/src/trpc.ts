import { initTRPC } from '@trpc/server';
import { TRPCClientError } from '@trpc/client';
import type { OpenApiMeta } from 'trpc-to-openapi';
import { priceOf, type ErrorCode, type PriceVariant, type Scope } from '@vrs/contracts';
import { AppError } from '@vrs/kit';
import type { GatewayContext } from './context';
import { fromServiceError } from './errors/to-app-error';
import { debitForOperation } from './metering/meter';
import { requireScopes } from './auth/require-scopes';

export interface FieldCodes {
  missing?: ErrorCode;
  invalid?: ErrorCode;
}

export interface GatewayMeta {
  /** `public` operations need no credential (health probes); all others name the scopes keys must hold. */
  auth: 'public' | { scopes: Scope[] };
  /**
   * Input fields whose failures have codes of their own: `missing` when absent or blank (e.g. `q` →
   * QUERY_REQUIRED), `invalid` for any other failure (e.g. `provider` → PROVIDER_NOT_SUPPORTED).
   */
  fieldCodes?: Record<string, FieldCodes>;
  /**
   * For an operation with several priced modes, the variant whose price to reserve, read from the
   * raw request (e.g. a newest-first comment collection costs more than one page). Without it the
   * highest price of the operation is reserved.
   */
  reserveVariant?: (rawInput: Record<string, unknown>) => PriceVariant;
}

const t = initTRPC.context<GatewayContext>().meta<OpenApiMeta<GatewayMeta>>().create({ isDev: false });

/** Service errors arrive as tRPC client errors; turn them back into the AppError the service threw. */
const serviceErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok && result.error.cause instanceof TRPCClientError) {
    throw fromServiceError(result.error.cause);
  }
  return result;
});

const authenticated = t.middleware(({ ctx, meta, next }) => {
  if (ctx.authError) throw ctx.authError;
  if (!ctx.principal) throw new AppError('UNAUTHENTICATED');
  requireScopes(ctx.principal, meta?.auth === 'public' ? [] : (meta?.auth.scopes ?? []));
  return next({ ctx: { principal: ctx.principal } });
});

/** Reserve before the work, settle after it, refund when it fails; figures go to the response headers. */
const metered = t.middleware(async ({ ctx, meta, next, getRawInput }) => {
  const operationId = meta?.openapi?.operationId;
  const reserveAs = meta?.reserveVariant?.(((await getRawInput()) ?? {}) as Record<string, unknown>);
  const price = operationId ? priceOf(operationId, reserveAs) : 0;
  if (price === 0 || !ctx.principal) return next();
  const debit = await debitForOperation(ctx, operationId!, price);
  const result = await next();
  if (result.ok) await debit.settle(priceOf(operationId!, ctx.credits.variant));
  else await debit.refund();
  return result;
});

export const router = t.router;
export const publicProcedure = t.procedure.use(serviceErrors);
/** Operations that need a credential; their meta names the scopes. */
export const protectedProcedure = publicProcedure.use(authenticated).use(metered);
