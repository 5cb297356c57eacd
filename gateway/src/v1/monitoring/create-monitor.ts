import { monitorSchema, createMonitorInput } from '@vrs/contracts';
import { protectedOperation } from '../../trpc';
import { authenticatedErrors } from '../errors';
import { monitorFieldCodes } from './monitor-params';

export const createMonitor = protectedOperation({
  method: 'POST',
  path: '/monitors',
  operationId: 'createMonitor',
  tags: ['Monitoring'],
  summary: 'Create a monitor',
  description:
    'Watches YouTube on a schedule: `query` is `{kind: "topic", q, sampleSize?}` (videos newly breaking out or accelerating in a trend report), `{kind: "channel", id}` (new uploads and new playlists), `{kind: "video", id}` (view-velocity or comment-count jumps, new comments) or `{kind: "search", q}` (new videos among the newest results). `intervalMinutes` is 15–10080. An enabled monitor is checked at once: that first check saves a baseline and notifies nothing. Creating is free; each check is charged to the account at the sum of the prices of the operations it calls: search 2 (`searchVideos`), channel 4 (`getChannel` + `listChannelPlaylists`), video 5 (`getVideo` + one newest-first `getVideoComments` page), topic 10 (`getTopicTrends`). A missing `query` is 422 `MONITOR_QUERY_REQUIRED`, a bad `intervalMinutes` 422 `MONITOR_INTERVAL_INVALID`.',
  errorResponses: [...authenticatedErrors, 422],
})
  .meta({ fieldCodes: monitorFieldCodes })
  .input(createMonitorInput)
  .output(monitorSchema)
  .mutation(({ ctx, input }) => ctx.services.monitoring.monitors.create.mutate({ accountId: ctx.principal.accountId, ...input }));
