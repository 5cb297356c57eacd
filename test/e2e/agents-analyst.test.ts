import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { deleteNamespace } from '@vrs/bus';
import { apiClient, type ApiCall } from '@vrs/testing/api-client';
import { uniqueNamespace } from '@vrs/testing/nats';
import { startGatewayProcess, startServiceProcess, type RunningProcess } from '@vrs/testing/processes';
import { hasRecorded, hasSynthetic } from '@vrs/testing/upstreams/youtube/fixture-dirs';
import { startFakeLlm, type FakeLlm } from '@vrs/testing/upstreams/llm/server';
import { admit, ended, laryngealQuestion, readEventStream, runPathOf } from './agents-support';

const stackEnv = inject('stackEnv');
const logDir = inject('logDir');

const normalized = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

/**
 * An agents process with a model of its own (a fake LLM this file alone drives), its own gateway,
 * namespace and data dir; the shared stack's provider, billing and research. The shared agents
 * process has no model, so the deterministic suites are untouched.
 */
describe.skipIf(!hasRecorded || !hasSynthetic)('the transcript analyst in an agent run, over HTTP', () => {
  let llm: FakeLlm;
  let dataDir: string;
  let env: Record<string, string>;
  const started: RunningProcess[] = [];
  let api: ApiCall;
  let gatewayUrl: string;
  const headers = { 'x-demo-user': `agents-analyst-${Date.now()}` };

  beforeAll(async () => {
    llm = await startFakeLlm({ port: 0 });
    dataDir = await mkdtemp(join(logDir, 'agents-analyst-'));
    env = {
      ...stackEnv,
      NATS_NAMESPACE: uniqueNamespace('analyst'),
      DATA_DIR: dataDir,
      AGENTS_ENABLED: 'true',
      AGENTS_DEMO_ACCESS: 'true',
      LLM_BASE_URL: llm.baseUrl,
      LLM_PRIMARY_MODEL: 'agents-primary',
      LLM_FALLBACK_MODEL: 'agents-fallback',
      LLM_TIMEOUT_MS: '3000',
      LLM_MAX_RETRIES: '0',
    };
    const agents = await startServiceProcess('agents', env, logDir);
    started.push(agents);
    env.AGENTS_SERVICE_URL = agents.url;
    const gateway = await startGatewayProcess('gateway-agents-analyst', env, logDir);
    started.push(gateway);
    gatewayUrl = gateway.url;
    api = apiClient(gateway.url, headers);
  });

  afterAll(async () => {
    await Promise.all(started.map((running) => running.stop()));
    await deleteNamespace(env.NATS_URL!, env.NATS_NAMESPACE!).catch(() => undefined);
    await llm?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  /** The text of a video's transcript between two moments, read through the public API. */
  async function transcriptTextBetween(videoId: string, startMs: number, endMs: number): Promise<string> {
    const transcript = await api('GET', `/v1/providers/youtube/videos/${videoId}/transcript?detail=segments`);
    expect(transcript.status, transcript.text).toBe(200);
    return (transcript.body.segments as Array<{ startMs: number; endMs: number; text: string }>)
      .filter((segment) => segment.startMs >= startMs && segment.startMs < endMs)
      .map((segment) => segment.text)
      .join(' ');
  }

  it('rejects the analyst’s ungrounded answer, repairs it once, and cites only quotes found in their windows', async () => {
    llm.reset();
    llm.setBehaviour('*', 'unground-once');
    const run = await admit(api, { message: laryngealQuestion, route: { researchBreadth: 'focused', answerDetail: 'standard' } });
    const compact = await ended(api, run, '?details=diagnostics,evidence', 30_000);

    expect(compact).toMatchObject({ status: 'completed', result: { outcome: expect.stringMatching(/^(answered|partial)$/) } });
    // The model loop read the transcripts; the model answered from the analyst's findings, citing them.
    expect(compact.modelStepCount).toBeGreaterThan(0);
    expect(compact.result.answer).toMatch(/\[1\]/);
    const diagnostics = compact.transcriptDiagnostics as any[];
    const videos = [...new Set(diagnostics.map((item) => item.videoId))];
    expect(videos.length).toBeGreaterThan(0);
    for (const videoId of videos) {
      const ofVideo = diagnostics.filter((item) => item.videoId === videoId);
      expect(ofVideo.map((item) => [item.stage, item.outcome, item.code])).toEqual([
        ['transcript_analysis', 'started', null],
        ['transcript_analysis', 'rejected', 'GROUNDING_REJECTED'],
        ['repair', 'started', null],
        ['repair', 'repaired', null],
      ]);
      expect(ofVideo[1].issues.map((issue: { code: string }) => issue.code)).toEqual(
        expect.arrayContaining(['QUOTE_NOT_IN_WINDOW', 'WINDOW_OUT_OF_RANGE', 'ENTITY_NOT_SUPPORTED']),
      );
      expect(ofVideo[3].repairFeedback).toContain('QUOTE_NOT_IN_WINDOW');
      for (const item of ofVideo) {
        expect(Object.keys(item).sort()).toEqual(
          [
            'version',
            'stage',
            'videoId',
            'modelCallId',
            'attemptId',
            'attempt',
            'recordedAt',
            'outcome',
            'elapsedMs',
            'code',
            'finishReason',
            'modelId',
            'inputTokens',
            'outputTokens',
            'cancellationReason',
            'statusCode',
            'issues',
            'issueCount',
            'repairFeedback',
            'rejectedOutput',
            'sourceContext',
            'sourceWindows',
            'captureTruncated',
          ].sort(),
        );
      }
    }
    // One analysis and one repair per video: besides the loop's steps, the model was asked exactly twice each.
    expect(llm.requests().filter((request) => request.mode !== 'agent')).toHaveLength(videos.length * 2);

    const legacy = (await api('GET', `/v1/agent/${run.sessionId}/runs/${run.runId}?responseFormat=legacy`)).body;
    expect(legacy.transcriptDiagnostics).toEqual(diagnostics);
    const citations = legacy.result.citations as any[];
    expect(citations.length).toBeGreaterThan(0);
    for (const citation of citations) {
      expect(videos).toContain(citation.videoId);
      const windowText = await transcriptTextBetween(citation.videoId, citation.startMs, citation.endMs);
      expect(normalized(windowText)).toContain(normalized(citation.excerpt));
    }
    expect(compact.result.evidence.map((item: { excerpt: string }) => item.excerpt)).toEqual(citations.map((citation) => citation.excerpt));
    // The search and two transcripts (focused); the analyses are not tool calls.
    expect(compact.toolCallCount).toBe(3);
    // Each analysis is a persisted step of its own, announced on the run's event stream.
    const events = await readEventStream(await fetch(`${gatewayUrl}${runPathOf(run)}/events`, { headers }));
    const analyses = events.filter((event) => event.event === 'step' && event.data.kind === 'transcript_analysis');
    expect(analyses.map((event) => event.data.key).sort()).toEqual(videos.map((videoId) => `analyze:${videoId}`).sort());
    expect(analyses.every((event) => event.data.status === 'completed' && event.data.credits === 0)).toBe(true);
  });

  it('drops the findings of an analyst that never grounds them: insufficient evidence, with a warning', async () => {
    llm.reset();
    llm.setBehaviour('*', 'unground');
    const run = await admit(api, { message: laryngealQuestion, route: { researchBreadth: 'focused' } });
    const compact = await ended(api, run, '?details=diagnostics,evidence', 30_000);

    expect(compact).toMatchObject({ status: 'completed', result: { outcome: 'insufficient_evidence', confidence: 'none', evidence: [] } });
    expect(compact.result.warnings).toEqual(expect.arrayContaining([expect.objectContaining({ code: 'FINDINGS_DROPPED' })]));
    const outcomes = (compact.transcriptDiagnostics as any[]).map((item) => [item.stage, item.outcome, item.code]);
    expect(outcomes.length).toBeGreaterThan(0);
    expect(outcomes).toContainEqual(['repair', 'failed', 'GROUNDING_REJECTED']);
    expect(outcomes).not.toContainEqual(expect.arrayContaining(['repaired']));
    expect(outcomes).not.toContainEqual(expect.arrayContaining(['accepted']));
  });
});
