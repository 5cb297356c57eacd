import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { deleteNamespace } from '@vrs/bus';
import { apiClient, eventually, type ApiCall } from '@vrs/testing/api-client';
import { uniqueNamespace } from '@vrs/testing/nats';
import { startGatewayProcess, startProcess, startServiceProcess, type RunningProcess } from '@vrs/testing/processes';
import { hasRecorded, hasSynthetic } from '@vrs/testing/upstreams/youtube/fixture-dirs';
import { parseReplayDirs } from '@vrs/testing/upstreams/youtube/replay-dirs';
import { startFakeYouTube, type FakeYouTube } from '@vrs/testing/upstreams/youtube/server';
import { accountOf, admit, ended, laryngealQuestion, runPathOf } from './agents-support';

const stackEnv = inject('stackEnv');
const logDir = inject('logDir');

/** Log entries of one message about one run, from a process's output. */
const logged = (runner: RunningProcess, msg: string, runId: string) =>
  runner
    .output()
    .split('\n')
    .filter((line) => line.includes(`"msg":"${msg}"`))
    .map((line) => JSON.parse(line) as { runId: string; step?: string; reusedSteps?: string[] })
    .filter((entry) => entry.runId === runId);

/**
 * A stack of its own (provider, agents and gateway processes; a fake YouTube, namespace and
 * data dir of its own; the shared billing and research), because this file kills its agents service mid-run and
 * slows its YouTube down.
 */
describe.skipIf(!hasRecorded || !hasSynthetic)('a durable agent run survives kill -9 of the process running it', () => {
  let youtube: FakeYouTube;
  let dataDir: string;
  let env: Record<string, string>;
  let agents: RunningProcess;
  const started: RunningProcess[] = [];
  let api: ApiCall;

  const startAgents = (name: string, port: string) =>
    startProcess({
      name,
      entry: 'services/agents/src/main.ts',
      env: { ...env, SERVICE_PORT: port },
      logDir,
      readyMessage: 'service listening',
    });

  beforeAll(async () => {
    youtube = await startFakeYouTube({ replayDirs: parseReplayDirs() });
    dataDir = await mkdtemp(join(logDir, 'agents-restart-'));
    // A short ack wait, so the run of a killed process is redelivered within a second.
    env = {
      ...stackEnv,
      NATS_NAMESPACE: uniqueNamespace('agents'),
      DATA_DIR: dataDir,
      YOUTUBE_UPSTREAM_URL: youtube.url,
      BUS_ACK_WAIT_MS: '1000',
      AGENTS_ENABLED: 'true',
      AGENTS_DEMO_ACCESS: 'true',
    };
    const provider = await startServiceProcess('provider', env, logDir);
    env.PROVIDER_SERVICE_URL = provider.url;
    // The shared stack's research service answers project questions (this file asks none); billing is shared too.
    agents = await startAgents('agents-restart', '0');
    env.AGENTS_SERVICE_URL = agents.url;
    const gateway = await startGatewayProcess('gateway-agents-restart', env, logDir);
    started.push(provider, agents, gateway);
    api = apiClient(gateway.url, { 'x-demo-user': `agents-restart-${Date.now()}` });
  });

  afterAll(async () => {
    await Promise.all(started.map((running) => running.stop()));
    await deleteNamespace(env.NATS_URL!, env.NATS_NAMESPACE!).catch(() => undefined);
    await youtube?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('is resumed by another delivery from its persisted steps: completed calls not repeated, credits charged once', async () => {
    const { balance } = await accountOf(api);
    // Slow YouTube down, so the kill lands after the search is persisted and before the transcripts are.
    youtube.setLatency(1_500);
    const run = await admit(api, { message: laryngealQuestion });
    // Killed once the search is acknowledged by the store (its log line follows the write's sync; a
    // reader can see a write a moment before that, so polling the run would be too early).
    await eventually(
      async () =>
        logged(agents, 'agent tool call persisted', run.runId).some((entry) => entry.step?.startsWith('search_videos')) ? true : undefined,
      { timeoutMs: 20_000, intervalMs: 20, what: 'the search to be persisted' },
    );
    const midway = (await api('GET', runPathOf(run))).body;
    agents.child.kill('SIGKILL');
    await new Promise((resolve) => agents.child.once('exit', resolve));
    expect(midway.toolCallCount).toBeLessThan(4);
    const killed = agents;
    const searchesBefore = youtube.hits().byEndpoint.search ?? 0;

    youtube.setLatency(0);
    agents = await startAgents('agents-restart-2', new URL(killed.url).port);
    started.push(agents);
    const done = await ended(api, run, '', 30_000);

    expect(done).toMatchObject({ status: 'completed', toolCallCount: 4, result: { outcome: 'answered' } });
    // The restarted process found the calls the killed one had completed (the search at least) and
    // made none of them again; only what had not been persisted was called.
    const [resumed] = logged(agents, 'agent run resumed from its persisted steps', run.runId);
    const trail = JSON.stringify({ midway, restarted: logged(agents, 'agent tool call started', run.runId) });
    expect(resumed, trail).toBeDefined();
    expect(resumed?.reusedSteps).toContain('search_videos:insert laryngeal mask airway');
    const startedAgain = logged(agents, 'agent tool call started', run.runId).map((entry) => entry.step);
    expect(startedAgain.filter((step) => resumed!.reusedSteps!.includes(step!))).toEqual([]);
    expect(resumed!.reusedSteps!.length + startedAgain.length).toBe(4);
    expect(youtube.hits().byEndpoint.search ?? 0).toBe(searchesBefore);
    // Charged once: the balance moved by exactly what the run's steps cost.
    expect(done.billing.creditsCharged).toBeGreaterThan(0);
    expect(balance - (await accountOf(api)).balance).toBe(done.billing.creditsCharged);
  });
});
