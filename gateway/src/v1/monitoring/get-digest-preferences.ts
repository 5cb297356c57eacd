import { digestPreferencesSchema, getDigestPreferencesInput } from '@vrs/contracts';
import { protectedOperation } from '../../trpc';
import { authenticatedErrors } from '../errors';

export const getDigestPreferences = protectedOperation({
  method: 'GET',
  path: '/digests/preferences',
  operationId: 'getDigestPreferences',
  tags: ['Monitoring'],
  summary: 'Digest preferences',
  description: 'How often a digest of unread notifications is produced, at which local hour, and `nextDigestAt` (ISO 8601). Off until set.',
  errorResponses: [...authenticatedErrors],
})
  .input(getDigestPreferencesInput)
  .output(digestPreferencesSchema)
  .query(({ ctx }) => ctx.services.monitoring.digests.getPreferences.query({ accountId: ctx.principal.accountId }));
