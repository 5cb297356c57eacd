import type { Command } from 'commander';
import type { components } from '@vrs/client';
import { UsageError } from '../exit-codes';
import { action, wholeNumber } from './action';

type MonitorQuery = components['schemas']['MonitorQuery'];

function describeQuery(query: MonitorQuery): string {
  return 'q' in query ? `${query.kind}: ${query.q}` : `${query.kind}: ${query.id}`;
}

export function registerMonitoringCommands(program: Command) {
  const monitors = program.command('monitors').description('Monitors: list, create, delete');
  monitors
    .command('list', { isDefault: true })
    .description('List your monitors')
    .action(
      action(async (ctx) => {
        const { data } = await ctx.call((api) => api.GET('/monitors'));
        ctx.out.result(data, (page) =>
          ctx.out.table(
            ['id', 'watches', 'every', 'status', 'next check'],
            page.data.map((monitor) => [
              monitor.id,
              describeQuery(monitor.query),
              `${monitor.intervalMinutes} min`,
              monitor.status,
              new Date(monitor.nextCheckAt).toISOString(),
            ]),
          ),
        );
      }),
    );
  monitors
    .command('create')
    .description('Watch a topic, channel, video or search')
    .option('--topic <q>', "a topic's trends")
    .option('--channel <id>', "a channel's uploads")
    .option('--video <id>', "a video's activity")
    .option('--search <q>', "a search's new results")
    .requiredOption('--interval <minutes>', 'minutes between checks (15-10080)', wholeNumber)
    .action(
      action(async (ctx, options: { topic?: string; channel?: string; video?: string; search?: string; interval: number }) => {
        const queries: MonitorQuery[] = [
          ...(options.topic ? [{ kind: 'topic' as const, q: options.topic }] : []),
          ...(options.channel ? [{ kind: 'channel' as const, id: options.channel }] : []),
          ...(options.video ? [{ kind: 'video' as const, id: options.video }] : []),
          ...(options.search ? [{ kind: 'search' as const, q: options.search }] : []),
        ];
        const [query] = queries;
        if (!query || queries.length !== 1) throw new UsageError('Name exactly one of --topic, --channel, --video or --search.');
        const { data } = await ctx.call((api) => api.POST('/monitors', { body: { query, intervalMinutes: options.interval } }));
        ctx.out.result(
          data,
          (monitor) => `Created monitor ${monitor.id} (${describeQuery(monitor.query)}, every ${monitor.intervalMinutes} min).`,
        );
      }),
    );
  monitors
    .command('delete <monitorId>')
    .description('Delete a monitor')
    .action(
      action(async (ctx, id: string) => {
        const { data } = await ctx.call((api) => api.DELETE('/monitors/{id}', { params: { path: { id } } }));
        ctx.out.result(data, (deleted) => `Deleted monitor ${deleted.id}.`);
      }),
    );

  const notifications = program.command('notifications').description("Your monitors' notifications");
  notifications
    .command('list', { isDefault: true })
    .description('List notifications, newest first')
    .action(
      action(async (ctx) => {
        const { data } = await ctx.call((api) => api.GET('/notifications'));
        ctx.out.result(data, (list) =>
          ctx.out.table(
            ['id', 'when', 'kind', 'title', 'read'],
            list.notifications.map((item) => [
              item.id,
              item.createdAt,
              item.kind,
              item.title,
              item.read ? 'yes' : ctx.out.colors.bold('no'),
            ]),
          ),
        );
      }),
    );
  notifications
    .command('read <notificationId>')
    .description('Mark a notification read')
    .action(
      action(async (ctx, id: string) => {
        const { data } = await ctx.call((api) => api.POST('/notifications/{id}/read', { params: { path: { id } } }));
        ctx.out.result(data, () => `Marked ${id} read.`);
      }),
    );
}
