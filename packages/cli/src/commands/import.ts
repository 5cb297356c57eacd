import type { Command } from 'commander';
import type { components } from '@vrs/client';
import { FailedWorkError, UsageError } from '../exit-codes';
import { heldCreditsNote, indentLines } from '../output';
import { progressBar } from '../progress';
import { action, wholeNumber } from './action';

type Job = components['schemas']['Job'];
type ImportSource = Job['source'];

interface ImportOptions {
  video?: string[];
  playlist?: string;
  channel?: string;
  search?: string;
  limit?: number;
  comments?: boolean;
  wait: boolean;
  pollMs: number;
}

/** Exactly one source, from the flags given. */
function sourceOf(options: ImportOptions): ImportSource {
  const given = [options.video?.length ? 'video' : undefined, options.playlist, options.channel, options.search].filter(Boolean);
  if (given.length !== 1)
    throw new UsageError('Name exactly one source: --video <ids...>, --playlist <id>, --channel <id> or --search <query>.');
  const limit = options.limit ? { limit: options.limit } : {};
  const [video, ...moreVideos] = options.video ?? [];
  if (video && moreVideos.length === 0) return { type: 'video', id: video };
  if (video) return { type: 'videos', ids: [video, ...moreVideos] };
  if (options.playlist) return { type: 'playlist', id: options.playlist, ...limit } as ImportSource;
  if (options.channel) return { type: 'channel', id: options.channel, ...limit } as ImportSource;
  return { type: 'search', query: options.search ?? '', ...limit } as ImportSource;
}

const ended = (job: Job) => job.status === 'completed' || job.status === 'failed' || job.status === 'cancelled';

export function registerImportCommand(program: Command) {
  program
    .command('import <projectId>')
    .description('Import videos into a project, then follow the job until it ends')
    .option('--video <ids...>', 'one or more video ids')
    .option('--playlist <id>', "a playlist's videos")
    .option('--channel <id>', "a channel's recent uploads")
    .option('--search <query>', "a search's top results")
    .option('--limit <n>', 'how many videos from a playlist, channel or search', wholeNumber)
    .option('--comments', 'also import top comments')
    .option('--no-wait', 'answer with the queued job without following it')
    .option('--poll-ms <ms>', 'how often to check the job', wholeNumber, 500)
    .action(
      action(async (ctx, projectId: string, options: ImportOptions) => {
        const source = sourceOf(options);
        const client = await ctx.client();
        const { data: queued, meta } = await client.send(
          client.api.POST('/projects/{projectId}/imports', {
            params: { path: { projectId } },
            body: { source, ...(options.comments ? { include: { comments: true } } : {}) },
          }),
        );
        ctx.out.note(heldCreditsNote(`Import job ${queued.id} ${queued.status}`, queued.creditsHeld, meta));
        let job = queued;
        if (options.wait) {
          const bar = progressBar(ctx.out, 'importing');
          try {
            while (!ended(job)) {
              bar.update(job.progress.done, job.progress.total, job.status);
              await new Promise((resolve) => setTimeout(resolve, options.pollMs));
              job = (await client.send(client.api.GET('/jobs/{id}', { params: { path: { id: job.id } } }))).data;
            }
            bar.update(job.progress.done, job.progress.total, job.status);
          } finally {
            bar.stop();
          }
        }
        ctx.out.result(job, (final) =>
          [
            `Job ${final.id}: ${final.status} (${final.progress.done}/${final.progress.total} videos)`,
            ...final.errors.map(
              (error) =>
                `  ${ctx.out.colors.yellow('!')} ${error.code}: ${indentLines(`${error.videoId ? `${error.videoId}: ` : ''}${error.message}`, 4)}`,
            ),
            ...final.warnings.map((warning) => `  ${ctx.out.colors.yellow('!')} ${indentLines(warning, 4)}`),
          ].join('\n'),
        );
        if (job.status === 'failed' || job.status === 'cancelled') throw new FailedWorkError(`The import job ${job.status}.`);
      }),
    );
}
