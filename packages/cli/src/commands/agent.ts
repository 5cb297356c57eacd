import type { Command } from 'commander';
import { readEventStream, type components } from '@vrs/client';
import { FailedWorkError } from '../exit-codes';
import type { Output } from '../output';
import { action } from './action';

type CompactAgentRun = components['schemas']['CompactAgentRun'];

/** One line per streamed event: status changes and the run's steps. */
function eventLine(event: string, data: Record<string, unknown>, out: Output): string {
  if (event === 'status') return `${out.colors.dim('•')} ${data.status}${data.outcome ? ` (${data.outcome})` : ''}`;
  if (event === 'step') {
    const parts = [data.kind, data.tool, data.key, data.status].filter((part) => typeof part === 'string' && part !== '');
    return `${out.colors.dim('  ›')} ${parts.join(' ')}${typeof data.credits === 'number' ? out.colors.dim(` (${data.credits} cr)`) : ''}`;
  }
  return `${out.colors.dim('•')} ${event} ${JSON.stringify(data)}`;
}

/** The answer, then its sources numbered in the order the answer cites them. */
export function renderAgentAnswer(run: CompactAgentRun, out: Output): string {
  if (!run.result) return `Run ${run.status}${run.error ? `: ${run.error}` : ''}.`;
  return [
    run.result.answer,
    '',
    ...run.result.sources.map((source, n) => `${out.colors.cyan(`[${n + 1}]`)} ${source.title} ${out.colors.dim(source.url)}`),
    ...run.result.warnings.map((warning) => out.colors.yellow(`! ${typeof warning === 'string' ? warning : JSON.stringify(warning)}`)),
    out.colors.dim(`session ${run.sessionId} · run ${run.runId} · ${run.result.outcome}`),
  ].join('\n');
}

export function registerAgentCommands(program: Command) {
  const agent = program.command('agent').description('Research agent runs');
  agent
    .command('ask <message>')
    .description('Ask the research agent; its steps stream live, then the answer prints with numbered sources')
    .option('-p, --project <projectId>', "also search this project's evidence")
    .option('-s, --session <sessionId>', 'continue this conversation')
    .action(
      action(async (ctx, message: string, options: { project?: string; session?: string }) => {
        const client = await ctx.client();
        const { data: admitted } = await client.send(
          client.api.POST('/agent/runs', {
            body: {
              message,
              ...(options.project ? { projectId: options.project } : {}),
              ...(options.session ? { sessionId: options.session } : {}),
            },
          }),
        );
        const runPath = `/agent/${encodeURIComponent(admitted.sessionId)}/runs/${encodeURIComponent(admitted.runId)}`;
        const stream = await client.raw(`${runPath}/events`, { headers: { accept: 'text/event-stream' } });
        for await (const event of readEventStream(stream)) {
          const data = (event.data ?? {}) as Record<string, unknown>;
          ctx.out.event({ event: event.event, ...data }, eventLine(event.event, data, ctx.out));
        }
        const { data: run } = await client.send(
          client.api.GET('/agent/{sessionId}/runs/{runId}', { params: { path: { sessionId: admitted.sessionId, runId: admitted.runId } } }),
        );
        const compact = run as CompactAgentRun;
        ctx.out.result(compact, (final) => renderAgentAnswer(final, ctx.out));
        if (compact.status === 'failed' || compact.status === 'cancelled') throw new FailedWorkError(`The run ${compact.status}.`);
      }),
    );
}
