import type { BillingRouter } from '@vrs/billing';
import { AppError, isAppErrorData, type createServiceClient } from '@vrs/kit';
import type { ProviderRouter } from '@vrs/provider';
import type { ResearchRouter } from '@vrs/research';
import type { TrendsRouter } from '@vrs/trends';

/** The services an agent run reaches, in-process or over HTTP, whichever the host wired. */
export type ProviderClient = ReturnType<typeof createServiceClient<ProviderRouter>>;
export type ResearchClient = ReturnType<typeof createServiceClient<ResearchRouter>>;
export type BillingClient = ReturnType<typeof createServiceClient<BillingRouter>>;
export type TrendsClient = ReturnType<typeof createServiceClient<TrendsRouter>>;

/** A tool call the model asked for with arguments its tool refuses: a failed step, never a service call. */
export class ToolInputInvalid extends Error {
  readonly code = 'TOOL_INPUT_INVALID';
}

/** The code a failed service call answered with; no answer at all is SERVICE_UNAVAILABLE. */
export function failureOf(error: unknown): { code: string; message: string } {
  if (error instanceof ToolInputInvalid || error instanceof AppError) return { code: error.code, message: error.message };
  const data = (error as { shape?: { data?: unknown }; data?: unknown }).shape?.data ?? (error as { data?: unknown }).data;
  if (isAppErrorData(data)) return { code: data.appCode, message: (error as Error).message };
  return { code: 'SERVICE_UNAVAILABLE', message: 'A service the run depends on did not answer.' };
}
