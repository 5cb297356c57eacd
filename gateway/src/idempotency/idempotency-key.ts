import { z } from 'zod';
import { idempotencyKey } from '@vrs/contracts';
import { AppError } from '@vrs/kit';
import type { GatewayContext } from '../context';

const headerName = 'Idempotency-Key';
const keySchema = idempotencyKey();

/** Documents the header on a job-creating operation (`requestHeaders` of its OpenAPI meta). */
export const idempotencyHeaders = () =>
  z.object({
    [headerName]: idempotencyKey()
      .optional()
      .describe(
        'Makes a retry safe: the same key and request within 24 hours answer the first response and are charged once; the same key with a different request is 422 IDEMPOTENCY_KEY_REUSED; while the first is still running, 409 IDEMPOTENCY_KEY_IN_USE.',
      ),
  });

/**
 * The request's Idempotency-Key, checked like a body field (422 naming the header). The service
 * that owns the operation keeps the keys, beside the resources they create, so every gateway
 * replica sees the same ones.
 */
export function idempotencyKeyOf(ctx: GatewayContext): string | undefined {
  const value = ctx.req.headers[headerName.toLowerCase()];
  if (value === undefined) return undefined;
  const parsed = keySchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const message = `${headerName}: ${parsed.error.issues[0]?.message ?? 'invalid'}`;
  throw new AppError('VALIDATION_FAILED', message, { issues: [{ path: headerName, message }] });
}
