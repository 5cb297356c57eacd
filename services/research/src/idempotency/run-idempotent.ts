import { AppError } from '@vrs/kit';
import type { IdempotencyRepo } from '../repo/idempotency-repo';

export interface IdempotentRequest {
  accountId: string;
  /** The operation id: a key is scoped to one operation of one account. */
  operation: string;
  /** The caller's Idempotency-Key; without one the work simply runs. */
  key: string | undefined;
  /** The parsed request (defaults applied), fingerprinted to tell a retry from another request. */
  request: unknown;
}

/**
 * Runs `create` once per Idempotency-Key: the same key and request within the window answer the
 * first response (`replayed`, so the gateway charges nothing again); the same key with another
 * request is IDEMPOTENCY_KEY_REUSED; while the first is still running, IDEMPOTENCY_KEY_IN_USE. A
 * failed first request frees its key, so a retry does the work instead of replaying the failure.
 */
export async function runIdempotent<T>(
  idempotency: IdempotencyRepo,
  request: IdempotentRequest,
  create: () => Promise<T>,
): Promise<{ result: T; replayed: boolean }> {
  if (request.key === undefined) return { result: await create(), replayed: false };
  const fingerprint = idempotency.fingerprintOf(request.request);
  const claim = await idempotency.claim(request.accountId, request.operation, request.key, fingerprint);
  if (claim.kind === 'existing') {
    if (claim.fingerprint !== fingerprint) throw new AppError('IDEMPOTENCY_KEY_REUSED');
    if (claim.response === undefined) throw new AppError('IDEMPOTENCY_KEY_IN_USE');
    return { result: claim.response as T, replayed: true };
  }
  try {
    const result = await create();
    await idempotency.complete(claim.id, result);
    return { result, replayed: false };
  } catch (error) {
    await idempotency.release(claim.id);
    throw error;
  }
}
