import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { deleteNamespace } from '@vrs/bus';
import { apiClient, eventually, type ApiCall } from '@vrs/testing/api-client';
import { uniqueNamespace } from '@vrs/testing/nats';
import { startGatewayProcess, startProcess, startServiceProcess, type RunningProcess } from '@vrs/testing/processes';
import { hasRecorded, hasSynthetic } from '@vrs/testing/upstreams/youtube/fixture-dirs';
import { parseReplayDirs } from '@vrs/testing/upstreams/youtube/replay-dirs';
import { startFakeYouTube, type FakeYouTube } from '@vrs/testing/upstreams/youtube/server';
import { startFakeLlm, type FakeLlm, type RecordedRequest } from '@vrs/testing/upstreams/llm/server';
import { accountOf, admit, ended, laryngealQuestion, readEventStream, runPathOf } from './agents-support';

const stackEnv = inject('stackEnv');
const logDir = inject('logDir');
const primary = 'agents-primary';
const fallback = 'agents-fallback';

/** Log entries of one message about one run, from a process's output. */
const logged = (runner: RunningProcess, msg: string, runId: string) =>
  runner
    .output()
    .split('\n')
    .filter((line) => line.includes(`"msg":"${msg}"`))
    .map((line) => JSON.parse(line) as { runId: string; step?: string; reusedSteps?: string[] })
    .filter((entry) => entry.runId === runId);

/** The model step a request asked for: 1 + the assistant turns already in its conversation. */
const stepIndexOf = (request: RecordedRequest) => 1 + request.body.messages.filter((message) => message.role === 'assistant').length;
const ofQuestion = (requests: RecordedRequest[], question: string) =>
  requests.filter((request) => request.mode === 'agent' && request.prompt.includes(question));

/**
 * Agents with a model: a stack of its own (provider, agents and gateway processes; a fake YouTube, a
 * fake LLM, namespace and data dir of their own; the shared billing, research and trends), because
 * this file moves its model's behaviours and latency and kills its agents service mid-run.
 */
describe.skipIf(!hasRecorded || !hasSynthetic)('agent runs with a model: the tool loop over HTTP', () => {
  let youtube: FakeYouTube;
  let llm: FakeLlm;
  let dataDir: string;
  let env: Record<string, string>;
  let agents: RunningProcess;
  const started: RunningProcess[] = [];
  let gatewayUrl: string;
  let user = 0;

  const startAgents = (name: string, port: string) =>
    startProcess({
      name,
      entry: 'services/agents/src/main.ts',
      env: { ...env, SERVICE_PORT: port },
      logDir,
      readyMessage: 'service listening',
    });
  /** A demo user of its own (demo access is on in this stack), so balances and sessions do not mix. */
  const newUser = (): { api: ApiCall; headers: Record<string, string> } => {
    const headers = { 'x-demo-user': `agents-model-${Date.now()}-${user++}` };
    return { api: apiClient(gatewayUrl, headers), headers };
  };

  beforeAll(async () => {
    youtube = await startFakeYouTube({ replayDirs: parseReplayDirs() });
    llm = await startFakeLlm();
    dataDir = await mkdtemp(join(logDir, 'agents-model-'));
    env = {
      ...stackEnv,
      NATS_NAMESPACE: uniqueNamespace('agentsllm'),
      DATA_DIR: dataDir,
      YOUTUBE_UPSTREAM_URL: youtube.url,
      // A short ack wait, so the run of a killed process is redelivered within a second.
      BUS_ACK_WAIT_MS: '1000',
      AGENTS_ENABLED: 'true',
      AGENTS_DEMO_ACCESS: 'true',
      LLM_BASE_URL: llm.baseUrl,
      LLM_PRIMARY_MODEL: primary,
      LLM_FALLBACK_MODEL: fallback,
      LLM_TIMEOUT_MS: '10000',
      LLM_MAX_RETRIES: '0',
    };
    const provider = await startServiceProcess('provider', env, logDir);
    env.PROVIDER_SERVICE_URL = provider.url;
    agents = await startAgents('agents-model', '0');
    env.AGENTS_SERVICE_URL = agents.url;
    const gateway = await startGatewayProcess('gateway-agents-model', env, logDir);
    gatewayUrl = gateway.url;
    started.push(provider, agents, gateway);
  });

  beforeEach(() => {
    llm.reset();
    youtube.setLatency(0);
  });

  afterAll(async () => {
    await Promise.all(started.map((running) => running.stop()));
    await deleteNamespace(env.NATS_URL!, env.NATS_NAMESPACE!).catch(() => undefined);
    await youtube?.close();
    await llm?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('runs the loop: search, transcripts side by side, an answer whose citations resolve; every step on the event stream', async () => {
    const { api, headers } = newUser();
    const { balance } = await accountOf(api);
    const run = await admit(api, { message: laryngealQuestion });
    const done = await ended(api, run, '?details=evidence', 30_000);
    expect(done).toMatchObject({ status: 'completed', modelStepCount: 3, toolCallCount: 4, result: { outcome: 'answered' } });
    // Charged once, for its tool calls (read before the transcript reads below, which are charged to the same user).
    expect(done.billing.creditsCharged).toBeGreaterThan(0);
    expect(balance - (await accountOf(api)).balance).toBe(done.billing.creditsCharged);
    expect(done.result.answer).not.toMatch(/Extractive answer|ev_\d/);
    const { evidence, sources } = done.result;
    expect(evidence.length).toBeGreaterThanOrEqual(2);
    for (const [i, item] of evidence.entries()) {
      expect(done.result.answer).toContain(`[${i + 1}]`);
      expect(sources.map((source: { id: string }) => source.id)).toContain(item.sourceId);
      expect(item.endMs).toBeGreaterThan(item.startMs);
    }
    // Each cited range is a window of the video's real transcript (starts and ends on caption lines).
    const legacy = (await api('GET', `${runPathOf(run)}?responseFormat=legacy`)).body.result;
    for (const citation of legacy.citations) {
      const transcript = await api('GET', `/v1/providers/youtube/videos/${citation.videoId}/transcript?detail=segments`);
      const segments = transcript.body.segments as { startMs: number; endMs: number }[];
      expect(segments.some((segment) => segment.startMs === citation.startMs)).toBe(true);
      expect(segments.some((segment) => segment.endMs === citation.endMs)).toBe(true);
    }
    // The model was asked three times (search, three transcripts in one step, the answer), the primary answering.
    const asked = ofQuestion(llm.requests(), laryngealQuestion);
    expect(asked.map((request) => [request.model, request.answer?.toolCalls.map((call) => call.name)])).toEqual([
      [primary, ['search_videos']],
      [primary, ['get_transcript', 'get_transcript', 'get_transcript']],
      [primary, []],
    ]);
    const events = await readEventStream(await fetch(`${gatewayUrl}${runPathOf(run)}/events`, { headers }));
    const steps = events.filter((event) => event.event === 'step' && event.data.kind !== 'classification').map((event) => event.data);
    expect(steps.filter((step) => step.kind === 'model_step').map((step) => [step.key, step.model])).toEqual([
      ['model:1', primary],
      ['model:2', primary],
      ['model:3', primary],
    ]);
    expect(steps.filter((step) => step.kind === 'tool_call')).toHaveLength(4);
  });

  it('gives a failing tool call back to the model, which recovers and answers; the failed call costs nothing', async () => {
    llm.setBehaviour(primary, 'tool-error');
    const { api } = newUser();
    const run = await admit(api, { message: laryngealQuestion });
    const done = await ended(api, run, '', 30_000);
    expect(done).toMatchObject({ status: 'completed', modelStepCount: 4, toolCallCount: 5, result: { outcome: 'answered' } });
    expect(done.result.warnings).toContainEqual(expect.objectContaining({ code: 'TOOL_INPUT_INVALID' }));
    const asked = ofQuestion(llm.requests(), laryngealQuestion);
    // The second step was sent the error as the result of the first step's call.
    const toolMessage = asked[1]!.body.messages.find((message) => message.role === 'tool');
    expect(String(toolMessage?.content)).toContain('TOOL_INPUT_INVALID');
    expect(asked[1]!.answer?.toolCalls.map((call) => call.name)).toEqual(['search_videos']);
  });

  it('answers through the fallback model when the primary fails', async () => {
    llm.setBehaviour(primary, 'fail');
    const { api, headers } = newUser();
    const run = await admit(api, { message: laryngealQuestion });
    const done = await ended(api, run, '', 30_000);
    expect(done).toMatchObject({ status: 'completed', modelStepCount: 3, result: { outcome: 'answered' } });
    const asked = ofQuestion(llm.requests(), laryngealQuestion);
    // Every step: the primary tried and failed, then the fallback answered.
    expect(asked.map((request) => request.model)).toEqual([primary, fallback, primary, fallback, primary, fallback]);
    expect(asked.filter((request) => request.answer).map((request) => request.model)).toEqual([fallback, fallback, fallback]);
    const events = await readEventStream(await fetch(`${gatewayUrl}${runPathOf(run)}/events`, { headers }));
    const models = events.filter((event) => event.event === 'step' && event.data.kind === 'model_step').map((event) => event.data.model);
    expect(models).toEqual([fallback, fallback, fallback]);
  });

  it('drops a citation the model made up and says so; every [n] left resolves', async () => {
    llm.setBehaviour(primary, 'cite-unknown');
    const { api } = newUser();
    const run = await admit(api, { message: laryngealQuestion });
    const done = await ended(api, run, '?details=evidence', 30_000);
    expect(done.status).toBe('completed');
    expect(ofQuestion(llm.requests(), laryngealQuestion).at(-1)?.answer?.text).toContain('[ev_999]');
    expect(done.result.warnings).toContainEqual(expect.objectContaining({ code: 'CITATIONS_DROPPED' }));
    const markers = [...done.result.answer.matchAll(/\[(\d+)\]/g)].map((match) => Number(match[1]));
    expect(markers.length).toBeGreaterThan(0);
    for (const n of markers) expect(n).toBeLessThanOrEqual(done.result.evidence.length);
  });

  it('survives kill -9 after a model step: the same run completes, no persisted model step or tool call is made again, charged once', async () => {
    const { api } = newUser();
    const { balance } = await accountOf(api);
    // A slow model, so the kill lands while the second model step is in flight, after the search is persisted.
    llm.setLatency(1_500);
    const run = await admit(api, { message: laryngealQuestion });
    await eventually(
      async () =>
        logged(agents, 'agent tool call persisted', run.runId).some((entry) => entry.step?.startsWith('search_videos')) ? true : undefined,
      { timeoutMs: 20_000, intervalMs: 20, what: 'the search to be persisted' },
    );
    expect(logged(agents, 'agent model step persisted', run.runId).map((entry) => entry.step)).toEqual(['model:1']);
    agents.child.kill('SIGKILL');
    await new Promise((resolve) => agents.child.once('exit', resolve));
    const killed = agents;
    const searchesBefore = youtube.hits().byEndpoint.search ?? 0;

    llm.setLatency(0);
    agents = await startAgents('agents-model-2', new URL(killed.url).port);
    started.push(agents);
    const done = await ended(api, run, '', 30_000);
    expect(done).toMatchObject({ status: 'completed', modelStepCount: 3, toolCallCount: 4, result: { outcome: 'answered' } });
    const [resumed] = logged(agents, 'agent run resumed from its persisted steps', run.runId);
    expect(resumed?.reusedSteps).toEqual(expect.arrayContaining(['model:1', 'search_videos:insert laryngeal mask airway']));
    // Counted at the fakes: the first model step was asked once in all; the search was not made again.
    const asked = ofQuestion(llm.requests(), laryngealQuestion);
    expect(asked.filter((request) => stepIndexOf(request) === 1)).toHaveLength(1);
    // At most the step in flight at the kill was asked twice.
    expect(asked.length).toBeLessThanOrEqual(done.modelStepCount + 1);
    expect(youtube.hits().byEndpoint.search ?? 0).toBe(searchesBefore);
    const startedAgain = logged(agents, 'agent tool call started', run.runId).map((entry) => entry.step);
    expect(startedAgain.filter((step) => resumed!.reusedSteps!.includes(step!))).toEqual([]);
    expect(balance - (await accountOf(api)).balance).toBe(done.billing.creditsCharged);
  });
});
