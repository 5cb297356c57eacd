import { digestPreferencesSchema, putDigestPreferencesInput } from '@vrs/contracts';
import { protectedOperation } from '../../trpc';
import { authenticatedErrors } from '../errors';

export const putDigestPreferences = protectedOperation({
  method: 'PUT',
  path: '/digests/preferences',
  operationId: 'putDigestPreferences',
  tags: ['Monitoring'],
  summary: 'Set digest preferences',
  description:
    '`{frequency: off | daily | weekly, hourOfDay (0–23), timezone (IANA), channels: ["in_app", "webhook"]}`. A digest is a notification of kind `digest` summarizing the unread notifications since the last digest, produced at `hourOfDay`:00 local time (weekly: Mondays); a period with nothing unread produces none. `in_app`: the digest is an unread notification; `webhook`: it is delivered to the webhooks of the account (without `in_app` it is saved already read). Answers the preferences with `nextDigestAt`.',
  errorResponses: [...authenticatedErrors, 422],
})
  .meta({ fieldCodes: { timezone: { invalid: 'TIMEZONE_INVALID' } } })
  .input(putDigestPreferencesInput)
  .output(digestPreferencesSchema)
  .mutation(({ ctx, input }) => ctx.services.monitoring.digests.putPreferences.mutate({ accountId: ctx.principal.accountId, ...input }));
