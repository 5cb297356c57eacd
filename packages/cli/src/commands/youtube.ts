import { writeFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { UsageError } from '../exit-codes';
import { clock, count } from '../output';
import { withSpinner } from '../progress';
import { action, wholeNumber } from './action';

const youtube = 'youtube' as const;
const transcriptFormats = ['text', 'srt', 'vtt', 'json'] as const;
const transcriptDetails = ['text', 'segments', 'words'] as const;

export function registerYouTubeCommands(program: Command) {
  program
    .command('video <videoId>')
    .description("A video's metadata")
    .action(
      action(async (ctx, id: string) => {
        const { data } = await ctx.call((api) =>
          api.GET('/providers/{provider}/videos/{id}', { params: { path: { provider: youtube, id } } }),
        );
        ctx.out.result(data, (video) =>
          [
            ctx.out.colors.bold(video.title),
            `channel:   ${video.channel.name} (${video.channel.id})`,
            `published: ${video.publishDate ?? '–'}   duration: ${clock(video.durationSeconds * 1000)}`,
            `views:     ${count(video.viewCount)}   likes: ${count(video.likeCount)}   comments: ${count(video.commentCount)}`,
            `captions:  ${video.captionTracks.map((track) => track.languageCode).join(', ') || 'none'}`,
            '',
            video.description,
          ].join('\n'),
        );
      }),
    );

  program
    .command('transcript <videoId>')
    .description("A video's transcript as text, SubRip, WebVTT or JSON")
    .option('--lang <code>', 'language (translated when the video has no such track)')
    .option('--detail <detail>', 'with --format json: text, segments or words')
    .option('--format <format>', 'text, srt, vtt or json', 'text')
    .option('-o, --output <file>', 'write to a file instead of stdout')
    .action(
      action(async (ctx, id: string, options: { lang?: string; detail?: string; format: string; output?: string }) => {
        const format = ctx.out.json ? 'json' : options.format;
        if (!transcriptFormats.includes(format as never)) throw new UsageError(`--format must be one of ${transcriptFormats.join(', ')}.`);
        if (options.detail && !transcriptDetails.includes(options.detail as never))
          throw new UsageError(`--detail must be one of ${transcriptDetails.join(', ')}.`);
        const client = await ctx.client();
        let body: string;
        if (format === 'srt' || format === 'vtt') {
          const query = new URLSearchParams({ format, ...(options.lang ? { lang: options.lang } : {}) });
          body = await (await client.raw(`/providers/youtube/videos/${encodeURIComponent(id)}/transcript?${query}`)).text();
        } else {
          const detail = (options.detail ?? (format === 'text' ? 'text' : undefined)) as (typeof transcriptDetails)[number] | undefined;
          const { data } = await client.send(
            client.api.GET('/providers/{provider}/videos/{id}/transcript', {
              params: {
                path: { provider: youtube, id },
                query: { ...(options.lang ? { lang: options.lang } : {}), ...(detail ? { detail } : {}) },
              },
            }),
          );
          body = format === 'json' ? `${JSON.stringify(data, null, 2)}\n` : typeof data === 'string' ? data : `${data.text}\n`;
        }
        if (options.output) {
          await writeFile(options.output, body);
          ctx.out.note(`Saved the transcript to ${options.output}.`);
          return;
        }
        process.stdout.write(body);
      }),
    );

  program
    .command('comments <videoId>')
    .description("A video's comments (top first, or --newest)")
    .option('--newest', 'newest first')
    .option('--limit <n>', 'at most this many (1-100)', wholeNumber)
    .action(
      action(async (ctx, id: string, options: { newest?: boolean; limit?: number }) => {
        const { data } = await ctx.call((api) =>
          api.GET('/providers/{provider}/videos/{id}/comments', {
            params: {
              path: { provider: youtube, id },
              // The API sizes only the newest-first collection; a page of top comments is YouTube's size, cut below.
              query: options.newest ? { newest: 'true' as const, limit: options.limit } : {},
            },
          }),
        );
        ctx.out.result(
          data,
          (page) =>
            page.comments
              .map(
                (comment) =>
                  `${ctx.out.colors.bold(comment.author.name)} · ${comment.publishedTimeText} · ♥ ${count(comment.likeCount)}\n  ${comment.text.replace(/\n/g, '\n  ')}`,
              )
              .join('\n') || 'No comments.',
        );
      }),
    );

  program
    .command('channel <channelId>')
    .description('A channel (id UC… or @handle) and its recent uploads; --playlists for its playlists')
    .option('--playlists', "list the channel's playlists instead")
    .action(
      action(async (ctx, id: string, options: { playlists?: boolean }) => {
        const path = { provider: youtube, id };
        if (options.playlists) {
          const { data } = await ctx.call((api) => api.GET('/providers/{provider}/channels/{id}/playlists', { params: { path } }));
          ctx.out.result(data, (page) =>
            ctx.out.table(
              ['id', 'title', 'videos', 'updated'],
              page.playlists.map((playlist) => [playlist.id, playlist.title, playlist.videoCountText, playlist.updatedTimeText]),
            ),
          );
          return;
        }
        const { data } = await ctx.call((api) => api.GET('/providers/{provider}/channels/{id}', { params: { path } }));
        ctx.out.result(data, (channel) =>
          [
            `${ctx.out.colors.bold(channel.title)} ${channel.handle ?? ''} (${channel.id})`,
            `subscribers: ${count(channel.subscriberCount)}   videos: ${count(channel.videoCount)}`,
            '',
            ctx.out.table(
              ['id', 'title', 'views', 'published'],
              channel.recentUploads.map((video) => [video.id, video.title, count(video.viewCount), video.publishedTimeText]),
            ),
          ].join('\n'),
        );
      }),
    );

  program
    .command('playlist <playlistId>')
    .description('A playlist and its videos')
    .action(
      action(async (ctx, id: string) => {
        const { data } = await ctx.call((api) =>
          api.GET('/providers/{provider}/playlists/{id}', { params: { path: { provider: youtube, id } } }),
        );
        ctx.out.result(data, (playlist) =>
          [
            `${ctx.out.colors.bold(playlist.title)} · ${playlist.channel.name ?? ''} · ${playlist.videoCountText}`,
            ctx.out.table(
              ['#', 'id', 'title', 'duration', 'views'],
              playlist.videos.map((video, n) => [n + 1, video.id, video.title, video.durationText, video.viewCountText]),
            ),
          ].join('\n'),
        );
      }),
    );

  program
    .command('trends <topic>')
    .description('The trending videos of a topic: score, band, views/hour, acceleration')
    .option('--sample-size <n>', 'how many videos to sample', wholeNumber)
    .option('--mode <mode>', 'deterministic or ai')
    .action(
      action(async (ctx, topic: string, options: { sampleSize?: number; mode?: 'ai' | 'deterministic' }) => {
        if (options.mode && options.mode !== 'ai' && options.mode !== 'deterministic')
          throw new UsageError('--mode must be ai or deterministic.');
        const { data } = await withSpinner(ctx.out, 'Measuring trends…', () =>
          ctx.call((api) =>
            api.GET('/providers/{provider}/trends', {
              params: {
                path: { provider: youtube },
                query: { q: topic, sampleSize: options.sampleSize, ...(options.mode ? { mode: options.mode } : {}) },
              },
            }),
          ),
        );
        ctx.out.result(data, (report) =>
          [
            `${ctx.out.colors.bold(report.query)} · ${report.videos.length} videos, by trend score · confidence ${report.confidence.level}`,
            ctx.out.table(
              ['#', 'title', 'channel', 'score', 'band', 'views/h', 'accel.'],
              [...report.videos]
                .sort((a, b) => b.trendScore - a.trendScore)
                .map((video, n) => [
                  n + 1,
                  video.title.length > 50 ? `${video.title.slice(0, 49)}…` : video.title,
                  video.channel.name,
                  video.trendScore.toFixed(1),
                  video.trendBand,
                  count(Math.round(video.viewsPerHour)),
                  video.accelerationPercent === undefined ? '–' : `${video.accelerationPercent.toFixed(0)}%`,
                ]),
            ),
            ...report.warnings.map((warning) => ctx.out.colors.yellow(`! ${warning}`)),
          ].join('\n'),
        );
      }),
    );

  program
    .command('plan <topic>')
    .description("A video plan for a topic, from that topic's trend report")
    .action(
      action(async (ctx, topic: string) => {
        const client = await ctx.client();
        const plan = await withSpinner(ctx.out, 'Measuring trends, then planning…', async () => {
          const { data: report } = await client.send(
            client.api.GET('/providers/{provider}/trends', { params: { path: { provider: youtube }, query: { q: topic } } }),
          );
          return (await client.send(client.api.POST('/trends/plan', { body: { report } }))).data;
        });
        ctx.out.result(plan, (video) =>
          [
            ctx.out.colors.bold(video.titleIdeas[0] ?? topic),
            `angle:    ${video.angle}`,
            `audience: ${video.audience}`,
            `hook:     ${video.hook}`,
            `length:   ${clock(video.recommendedDurationSeconds * 1000)}`,
            '',
            ...video.outline.map((part, n) => `${n + 1}. ${part.section} — ${part.goal}`),
            '',
            `hashtags: ${video.hashtags.join(' ')}`,
            ...video.caveats.map((caveat) => ctx.out.colors.yellow(`! ${caveat}`)),
          ].join('\n'),
        );
      }),
    );
}
