import type { BillingRouter } from '@vrs/billing';
import { isAppErrorData, type createServiceClient } from '@vrs/kit';
import type { ProviderRouter } from '@vrs/provider';
import type { ResearchRouter } from '@vrs/research';

/** The services an agent run reaches, in-process or over HTTP, whichever the host wired. */
export type ProviderClient = ReturnType<typeof createServiceClient<ProviderRouter>>;
export type ResearchClient = ReturnType<typeof createServiceClient<ResearchRouter>>;
export type BillingClient = ReturnType<typeof createServiceClient<BillingRouter>>;

/** The code a failed service call answered with; no answer at all is SERVICE_UNAVAILABLE. */
export function failureOf(error: unknown): { code: string; message: string } {
  const data = (error as { shape?: { data?: unknown }; data?: unknown }).shape?.data ?? (error as { data?: unknown }).data;
  if (isAppErrorData(data)) return { code: data.appCode, message: (error as Error).message };
  return { code: 'SERVICE_UNAVAILABLE', message: 'A service the run depends on did not answer.' };
}
