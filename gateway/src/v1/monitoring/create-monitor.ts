import { createMonitorBody, monitorSchema } from '@vrs/contracts';
import { protectedProcedure } from '../../trpc';
import { authenticatedErrors } from '../errors';
import { monitorFieldCodes } from './monitor-params';

export const createMonitor = protectedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/monitors',
      operationId: 'createMonitor',
      tags: ['Monitoring'],
      summary: 'Create a monitor',
      description:
        'Watches YouTube on a schedule: `query` is `{kind: "topic", q, sampleSize?}` (videos newly breaking out or accelerating in a trend report), `{kind: "channel", id}` (new uploads), `{kind: "video", id}` (view-velocity or comment-count jumps) or `{kind: "search", q}` (new videos among the newest results). `intervalMinutes` is 15–10080. An enabled monitor is checked at once: that first check saves a baseline and notifies nothing. Creating is free; each check is charged to the account at the price of the operation it calls (`searchVideos` 2, `getChannel` 2, `getVideo` 2, `getTopicTrends` 10).',
      protect: true,
      errorResponses: [...authenticatedErrors, 422],
    },
    fieldCodes: monitorFieldCodes,
  })
  .input(createMonitorBody())
  .output(monitorSchema)
  .mutation(({ ctx, input }) => ctx.services.monitoring.monitors.create.mutate({ accountId: ctx.principal.accountId, ...input }));
