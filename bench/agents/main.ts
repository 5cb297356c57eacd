// bench/agents: time from admission to completion of one agent run (a topic question, deterministic
// planner) through the whole system in one process, while the fake YouTube upstream adds 50 ms to
// every request, beside the run's critical path as its persisted steps timed them, and their ratio.
// Each run gets a fresh system (data dir), so the provider fetches from the upstream instead of
// serving saved versions. With BENCH_MODEL_MS the run goes through the model loop against the fake
// LLM answering that late; the critical path is then the model steps plus, after each, the slowest
// tool call it asked for. Not a test: it prints figures.
// Env: BENCH_LATENCY_MS (50), BENCH_RUNS (3), BENCH_MODEL_MS (unset).
import { apiClient } from '@vrs/testing/api-client';
import { defaultReplayDirs, parseReplayDirs } from '@vrs/testing/upstreams/youtube/replay-dirs';
import { startFakeYouTube } from '@vrs/testing/upstreams/youtube/server';
import { startFakeLlm, type FakeLlm } from '@vrs/testing/upstreams/llm/server';
import { eventLoopVerdict, watchGatewayEventLoop } from '../support/bench-gateway';
import { median, withTempDir } from '../support/figures';
import { startUpstreamGateway, type FakeYouTube } from '../support/upstream-bench';

const latencyMs = Number(process.env.BENCH_LATENCY_MS ?? 50);
const runs = Number(process.env.BENCH_RUNS ?? 3);
const modelMs = process.env.BENCH_MODEL_MS === undefined ? undefined : Number(process.env.BENCH_MODEL_MS);
const question = 'How do you insert a laryngeal mask airway?';

/** The stretches between admission and completion, in order; together they are the elapsed time. */
const phases = ['admission', 'pickup', 'planning', 'tools', 'ending', 'seen by client'] as const;
type Phase = (typeof phases)[number];

interface RunEvent {
  at: string;
  status?: string;
  kind?: string;
  tool?: string;
  elapsedMs?: number;
}

/**
 * Splits the elapsed time at the run's recorded events, each phase ending at the next one. Event
 * times are the gateway's wall clock, on this machine the bench's too.
 */
function phasesOf(events: RunEvent[], startedAtMs: number, doneAtMs: number): Record<Phase, number> {
  const at = (event: RunEvent | undefined) => (event ? Date.parse(event.at) : Number.NaN);
  const tools = events.filter((event) => event.kind === 'tool_call');
  const pending = at(events.find((event) => event.status === 'pending'));
  const running = at(events.find((event) => event.status === 'running'));
  const firstToolStart = Math.min(...tools.map((event) => at(event) - (event.elapsedMs ?? 0)));
  const lastToolEnd = Math.max(...tools.map(at));
  const ended = at(events.findLast((event) => event.status !== undefined));
  return {
    admission: pending - startedAtMs,
    pickup: running - pending,
    planning: firstToolStart - running,
    tools: lastToolEnd - firstToolStart,
    ending: ended - lastToolEnd,
    'seen by client': doneAtMs - ended,
  };
}

/**
 * The run's own critical path from its persisted steps, in the order they were written: each model
 * step, then the slowest of the tool calls that follow it (made side by side), then the slowest of
 * the transcript analyses those calls started (side by side, after the calls). Without a model, one
 * implicit step: the search, then the slowest transcript.
 */
function criticalPathOf(steps: RunEvent[]): number {
  if (!steps.some((step) => step.kind === 'model_step')) {
    const search = steps.find((step) => step.tool === 'search_videos')?.elapsedMs ?? 0;
    return search + Math.max(0, ...steps.filter((step) => step.tool === 'get_transcript').map((step) => step.elapsedMs ?? 0));
  }
  let total = 0;
  let slowestCall = 0;
  let slowestAnalysis = 0;
  for (const step of steps) {
    if (step.kind === 'model_step') {
      total += slowestCall + slowestAnalysis + (step.elapsedMs ?? 0);
      slowestCall = 0;
      slowestAnalysis = 0;
    } else if (step.kind === 'transcript_analysis') slowestAnalysis = Math.max(slowestAnalysis, step.elapsedMs ?? 0);
    else slowestCall = Math.max(slowestCall, step.elapsedMs ?? 0);
  }
  return total + slowestCall + slowestAnalysis;
}

async function oneRun(fake: FakeYouTube, llm: FakeLlm | undefined, index: number) {
  return withTempDir('vrs-bench-agents-', async (runDir) => {
    const gateway = await startUpstreamGateway(`bench-agents-${index}`, runDir, fake, {
      AGENTS_ENABLED: 'true',
      AGENTS_DEMO_ACCESS: 'true',
      ...(llm ? { LLM_BASE_URL: llm.baseUrl, LLM_PRIMARY_MODEL: 'bench-primary', LLM_MAX_RETRIES: '0' } : {}),
    });
    try {
      const api = apiClient(gateway.url, { 'x-demo-user': 'bench' });
      await api('GET', '/v1/billing');
      fake.reset();
      fake.setLatency(latencyMs);
      const worstEventLoopDelay = await watchGatewayEventLoop(gateway.url);
      const started = performance.now();
      const startedAtMs = Date.now();
      const admitted = await api('POST', '/v1/agent/runs', { json: { message: question } });
      if (admitted.status !== 202) throw new Error(`admission failed: ${admitted.status} ${admitted.text}`);
      const path = `/v1/agent/${admitted.body.sessionId}/runs/${admitted.body.runId}`;
      let run = admitted.body;
      while (run.status === 'pending' || run.status === 'running') {
        await new Promise((resolve) => setTimeout(resolve, 5));
        run = (await api('GET', path)).body;
      }
      const elapsedMs = performance.now() - started;
      const doneAtMs = Date.now();
      const worstEventLoopDelayMs = await worstEventLoopDelay();
      if (run.status !== 'completed') throw new Error(`run ended ${run.status}: ${JSON.stringify(run)}`);
      const upstreamRequests = fake.hits().total;
      // The steps as persisted, with their own timings, from the run's event stream.
      const stream = await fetch(`${gateway.url}${path}/events`, { headers: { 'x-demo-user': 'bench' } });
      const events = (await stream.text())
        .split('\n')
        .filter((line) => line.startsWith('data: '))
        .map((line) => JSON.parse(line.slice(6)) as RunEvent);
      const steps = events.filter(
        (event) => event.kind === 'tool_call' || event.kind === 'model_step' || event.kind === 'transcript_analysis',
      );
      return {
        elapsedMs,
        criticalMs: criticalPathOf(steps),
        toolCalls: steps.filter((step) => step.kind === 'tool_call').length,
        modelSteps: steps.filter((step) => step.kind === 'model_step').length,
        upstreamRequests,
        worstEventLoopDelayMs,
        phases: phasesOf(events, startedAtMs, doneAtMs),
      };
    } finally {
      await gateway.stop();
    }
  });
}

async function main() {
  const fake = await startFakeYouTube({ replayDirs: parseReplayDirs(defaultReplayDirs), log: () => undefined });
  const llm = modelMs === undefined ? undefined : await startFakeLlm({ latencyMs: modelMs });
  try {
    const rows = [];
    for (let index = 0; index < runs; index++) rows.push(await oneRun(fake, llm, index));
    const mode = llm ? `model loop, ${modelMs} ms per model call` : 'deterministic planner';
    console.log(
      `\nbench/agents — admission to completion of "${question}" (${mode}), ${latencyMs} ms added to every upstream request, ${runs} runs, a fresh system each\n`,
    );
    console.log(
      '| run | model steps | tool calls | upstream requests | elapsed ms | critical path ms (model steps + slowest tool call, then slowest analysis, after each) | elapsed / critical path |',
    );
    console.log('|---:|---:|---:|---:|---:|---:|---:|');
    rows.forEach((row, i) => {
      console.log(
        `| ${i + 1} | ${row.modelSteps} | ${row.toolCalls} | ${row.upstreamRequests} | ${row.elapsedMs.toFixed(0)} | ${row.criticalMs} | ${(row.elapsedMs / row.criticalMs).toFixed(2)} |`,
      );
    });
    console.log(`\nwhere the time went (ms, from the run's recorded events)\n`);
    console.log(`| run | ${phases.join(' | ')} |`);
    console.log(`|---:|${phases.map(() => '---:').join('|')}|`);
    rows.forEach((row, i) => {
      console.log(`| ${i + 1} | ${phases.map((phase) => row.phases[phase].toFixed(0)).join(' | ')} |`);
    });
    const elapsed = median(rows.map((row) => row.elapsedMs));
    const critical = median(rows.map((row) => row.criticalMs));
    console.log(
      `\nmedian: ${elapsed.toFixed(0)} ms against a ${critical} ms critical path — ratio ${(elapsed / critical).toFixed(2)} (aim ≤ 1.2)`,
    );
    console.log(eventLoopVerdict(rows.map((row) => row.worstEventLoopDelayMs)));
  } finally {
    await fake.close();
    await llm?.close();
  }
}

await main();
