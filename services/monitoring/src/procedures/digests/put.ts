import { digestPreferencesSchema, isoInstant, putDigestPreferencesInputSchema, type DigestPreferences } from '@vrs/contracts';
import { AppError, procedure } from '@vrs/kit';
import type { z } from 'zod';
import { nextDigestAt } from '../../digests/next-digest-at';
import type { MonitoringDeps } from '../../monitoring-deps';

/** Replaces the preferences; the next digest is the next chosen local hour from now (null when off). */
export async function putDigestPreferencesHandler({
  ctx,
  input,
}: {
  ctx: Pick<MonitoringDeps, 'digestPreferences' | 'clock'>;
  input: z.infer<typeof putDigestPreferencesInputSchema>;
}): Promise<DigestPreferences> {
  const { accountId, ...preferences } = input;
  const next = nextDigestAt(preferences, ctx.clock.now().getTime());
  const saved = await ctx.digestPreferences.put(accountId, { ...preferences, nextDigestAt: next });
  if (!saved) throw new AppError('INTERNAL_ERROR');
  return { ...preferences, nextDigestAt: isoInstant(next) };
}

export const putDigestPreferences = (deps: MonitoringDeps) =>
  procedure
    .input(putDigestPreferencesInputSchema)
    .output(digestPreferencesSchema)
    .mutation(({ input }) => putDigestPreferencesHandler({ ctx: deps, input }));
