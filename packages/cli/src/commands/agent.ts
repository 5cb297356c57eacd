import type { Command } from 'commander';
import { readEventStream, type components } from '@vrs/client';
import { FailedWorkError } from '../exit-codes';
import { heldCreditsNote, indentLines, type Output, warningText } from '../output';
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

/**
 * The answer, then every `[n]` it cites: the answer's markers number its evidence (asked with
 * `details=evidence`), several of which may come from one source, so each is listed with its
 * excerpt and its source. Sources no marker cites follow unnumbered.
 */
export function renderAgentAnswer(run: CompactAgentRun, out: Output): string {
  if (!run.result) return `Run ${run.status}${run.error ? `: ${run.error}` : ''}.`;
  const { answer, sources, evidence = [], warnings } = run.result;
  const sourceById = new Map(sources.map((source) => [source.id, source]));
  const cited = [...new Set([...answer.matchAll(/\[(\d+)\]/g)].map((match) => Number(match[1])))].sort((a, b) => a - b);
  const citedSources = new Set<string>();
  const citations = cited.map((n) => {
    const marker = out.colors.cyan(`[${n}]`);
    const item = evidence[n - 1];
    const source = item && sourceById.get(item.sourceId);
    if (!item || !source) return `${marker} ${out.colors.dim('(not in the answer’s evidence)')}`;
    citedSources.add(source.id);
    const pad = ' '.repeat(`[${n}] `.length);
    return `${marker} ${source.title} ${out.colors.dim(source.url)}\n${pad}“${indentLines(item.excerpt, pad.length)}”`;
  });
  const uncited = sources.filter((source) => !citedSources.has(source.id));
  return [
    answer,
    '',
    ...citations,
    ...uncited.map((source) => `${out.colors.dim('·')} ${source.title} ${out.colors.dim(source.url)}`),
    ...warnings.map((warning) => out.colors.yellow(`! ${indentLines(warningText(warning), 2)}`)),
    out.colors.dim(`session ${run.sessionId} · run ${run.runId} · ${run.result.outcome}`),
  ].join('\n');
}

export function registerAgentCommands(program: Command) {
  const agent = program.command('agent').description('Research agent runs');
  agent
    .command('ask <message>')
    .description(
      'Ask the research agent; its steps stream live, then the answer prints with every cited [n]. Needs an account an operator allowed (`npm run agents:allow`)',
    )
    .option('-p, --project <projectId>', "also search this project's evidence")
    .option('-s, --session <sessionId>', 'continue this conversation')
    .action(
      action(async (ctx, message: string, options: { project?: string; session?: string }) => {
        const client = await ctx.client();
        const { data: admitted, meta } = await client.send(
          client.api.POST('/agent/runs', {
            body: {
              message,
              ...(options.project ? { projectId: options.project } : {}),
              ...(options.session ? { sessionId: options.session } : {}),
            },
          }),
        );
        ctx.out.note(heldCreditsNote(`Run ${admitted.runId} ${admitted.status}`, admitted.creditsHeld, meta));
        const runPath = `/agent/${encodeURIComponent(admitted.sessionId)}/runs/${encodeURIComponent(admitted.runId)}`;
        const stream = await client.raw(`${runPath}/events`, { headers: { accept: 'text/event-stream' } });
        for await (const event of readEventStream(stream)) {
          const data = (event.data ?? {}) as Record<string, unknown>;
          ctx.out.event({ event: event.event, ...data }, eventLine(event.event, data, ctx.out));
        }
        const { data: run } = await client.send(
          client.api.GET('/agent/{sessionId}/runs/{runId}', {
            params: { path: { sessionId: admitted.sessionId, runId: admitted.runId }, query: { details: 'evidence' } },
          }),
        );
        const compact = run as CompactAgentRun;
        ctx.out.result(compact, (final) => renderAgentAnswer(final, ctx.out));
        if (compact.status === 'failed' || compact.status === 'cancelled') throw new FailedWorkError(`The run ${compact.status}.`);
      }),
    );
}
