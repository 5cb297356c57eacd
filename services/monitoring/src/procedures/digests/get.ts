import { digestPreferencesSchema, isoInstant, listNotificationsInputSchema, type DigestPreferences } from '@vrs/contracts';
import { procedure } from '@vrs/kit';
import type { z } from 'zod';
import type { MonitoringDeps } from '../../monitoring-deps';
import { defaultDigestPreferences } from '../../repo/digest-preferences-repo';

/** The account's digest preferences; an account that never set them has digests off. */
export async function getDigestPreferencesHandler({
  ctx,
  input,
}: {
  ctx: Pick<MonitoringDeps, 'digestPreferences'>;
  input: z.infer<typeof listNotificationsInputSchema>;
}): Promise<DigestPreferences> {
  const found = await ctx.digestPreferences.find(input.accountId);
  if (!found) return { ...defaultDigestPreferences, channels: [...defaultDigestPreferences.channels] };
  const { frequency, hourOfDay, timezone, channels, nextDigestAt } = found;
  return { frequency, hourOfDay, timezone, channels, nextDigestAt: isoInstant(nextDigestAt) };
}

export const getDigestPreferences = (deps: MonitoringDeps) =>
  procedure
    .input(listNotificationsInputSchema)
    .output(digestPreferencesSchema)
    .query(({ input }) => getDigestPreferencesHandler({ ctx: deps, input }));
