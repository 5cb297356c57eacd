import { isErrorCode } from '@vrs/contracts';
import { AppError, appErrorOfServiceCall, isAppErrorData, type createServiceClient } from '@vrs/kit';
import type { ProviderRouter } from '@vrs/provider';

/** The provider service as research calls it (in-process or over HTTP, whichever the host wired). */
export type ProviderClient = ReturnType<typeof createServiceClient<ProviderRouter>>;

/**
 * The code and message of a failed provider call, as the provider described it; a call that got no
 * answer is SERVICE_UNAVAILABLE. Job errors and warnings carry these, never a stack.
 */
export function providerFailureOf(error: unknown): { code: string; message: string } {
  const data = (error as { shape?: { data?: unknown }; data?: unknown }).shape?.data ?? (error as { data?: unknown }).data;
  if (isAppErrorData(data)) return { code: data.appCode, message: (error as Error).message };
  return { code: 'SERVICE_UNAVAILABLE', message: 'The provider service did not answer.' };
}

/**
 * A provider call whose failure reaches research's own caller as the same error, details included
 * (404 VIDEO_UNAVAILABLE stays that; a 503 keeps its reason and Retry-After).
 */
export async function viaProvider<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    const typed = appErrorOfServiceCall(error);
    if (typed) throw typed;
    const { code, message } = providerFailureOf(error);
    throw isErrorCode(code) ? new AppError(code, message) : new AppError('SERVICE_UNAVAILABLE');
  }
}
