import { createWriteStream } from 'node:fs';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Command } from 'commander';
import type { components } from '@vrs/client';
import { FailedWorkError } from '../exit-codes';
import { clock, count, indentLines, type Output, warningText } from '../output';
import { progressBar, withSpinner } from '../progress';
import { action, wholeNumber } from './action';

type Evidence = components['schemas']['Evidence'];
type CitedAnswer = components['schemas']['CitedAnswer'];

function evidenceLine(item: Evidence): string {
  const where = [item.entityId, item.startMs === undefined ? undefined : clock(item.startMs)].filter(Boolean).join(' @ ');
  return `${where ? `(${where}) ` : ''}${item.text}`;
}

/** The answer, then its sources numbered as the answer cites them. */
export function renderCitedAnswer(answer: CitedAnswer, out: Output): string {
  return [
    answer.answer,
    '',
    ...answer.citations.map(
      (citation, n) => `${out.colors.cyan(`[${n + 1}]`)} ${indentLines(evidenceLine(citation), `[${n + 1}] `.length)}`,
    ),
    ...answer.warnings.map((warning) => out.colors.yellow(`! ${indentLines(warningText(warning), 2)}`)),
  ].join('\n');
}

export function registerResearchCommands(program: Command) {
  program
    .command('search <query>')
    .description("Search YouTube, or a project's evidence with --project")
    .option('-p, --project <projectId>', "search this project's imported evidence instead")
    .option('--limit <n>', 'how many project results', wholeNumber)
    .action(
      action(async (ctx, query: string, { project: projectId, limit }: { project?: string; limit?: number }) => {
        if (projectId) {
          const { data } = await ctx.call((api) =>
            api.GET('/projects/{projectId}/search', {
              params: { path: { projectId }, query: { q: query, limit } },
            }),
          );
          ctx.out.result(data, (found) =>
            found.results.length === 0
              ? 'No matches.'
              : found.results
                  .map((item, n) => `${ctx.out.colors.cyan(`${n + 1}.`)} ${indentLines(evidenceLine(item), `${n + 1}. `.length)}`)
                  .join('\n'),
          );
          return;
        }
        const { data } = await ctx.call((api) =>
          api.GET('/providers/{provider}/search', { params: { path: { provider: 'youtube' }, query: { q: query } } }),
        );
        ctx.out.result(data, (found) =>
          ctx.out.table(
            ['id', 'title', 'channel', 'views', 'published'],
            found.videos.map((video) => [video.id, video.title, video.channel.name, count(video.viewCount), video.publishedTimeText]),
          ),
        );
      }),
    );

  program
    .command('answer <question>')
    .description('A cited answer to a question')
    .action(
      action(async (ctx, question: string) => {
        const { data } = await withSpinner(ctx.out, 'Answering…', () => ctx.call((api) => api.POST('/answers', { body: { question } })));
        ctx.out.result(data, (answer) => renderCitedAnswer(answer, ctx.out));
      }),
    );

  program
    .command('report <projectId> <prompt>')
    .description("A research report from a project's evidence")
    .action(
      action(async (ctx, projectId: string, prompt: string) => {
        const { data } = await withSpinner(ctx.out, 'Writing the report…', () =>
          ctx.call((api) => api.POST('/reports', { body: { projectId, prompt } })),
        );
        ctx.out.result(data, (report) => renderCitedAnswer(report, ctx.out));
      }),
    );

  program
    .command('export <projectId>')
    .description("Export a project's evidence: create, wait until ready, download")
    .option('--format <format>', 'json, csv or markdown', 'json')
    .option('-o, --output <file>', 'where to write it (default: the name the server gives)')
    .option('--poll-ms <ms>', 'how often to check the export', wholeNumber, 500)
    .action(
      action(async (ctx, projectId: string, options: { format: 'json' | 'csv' | 'markdown'; output?: string; pollMs: number }) => {
        const client = await ctx.client();
        let { data: exported } = await client.send(client.api.POST('/exports', { body: { projectId, format: options.format } }));
        await withSpinner(ctx.out, 'Writing the export…', async () => {
          while (exported.status === 'pending') {
            await new Promise((resolve) => setTimeout(resolve, options.pollMs));
            exported = (await client.send(client.api.GET('/exports/{id}', { params: { path: { id: exported.id } } }))).data;
          }
        });
        if (exported.status !== 'completed') throw new FailedWorkError(`The export failed: ${exported.error ?? 'no reason given'}.`);
        const response = await client.raw(`/exports/${encodeURIComponent(exported.id)}/download`);
        const named = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1];
        const file = options.output ?? named ?? `${exported.id}.${options.format === 'markdown' ? 'md' : options.format}`;
        const total = Number(response.headers.get('content-length') ?? exported.sizeBytes ?? 0);
        const bar = progressBar(ctx.out, 'downloading');
        let received = 0;
        const counter = new Transform({
          transform(chunk: Buffer, _encoding, done) {
            received += chunk.length;
            bar.update(received, total || received, 'bytes');
            done(null, chunk);
          },
        });
        try {
          await pipeline(Readable.fromWeb(response.body as never), counter, createWriteStream(file));
        } finally {
          bar.stop();
        }
        ctx.out.result({ ...exported, file, bytes: received }, () => `Saved ${received} bytes to ${file}.`);
      }),
    );
}
