import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { checkQuotedFindings, createLlm, llmEnvSchema, type Llm } from '@vrs/ai';
import { transcriptDiagnosticSchema } from '@vrs/contracts';
import { createLogger } from '@vrs/kit';
import { startFakeLlm, type FakeLlm } from '@vrs/testing/upstreams/llm/server';
import type { TranscriptWindow } from '../planner/windows';
import { analyzeTranscript } from './analyze-transcript';

const windows: TranscriptWindow[] = [
  {
    videoId: 'vid00000001',
    index: 2,
    startMs: 40_000,
    endMs: 59_000,
    text: 'Deflate the cuff fully and lubricate the back of the mask before you insert it.',
  },
  {
    videoId: 'vid00000001',
    index: 5,
    startMs: 100_000,
    endMs: 118_500,
    text: 'Press the mask along the hard palate with your index finger until you feel resistance.',
  },
];
const video = { videoId: 'vid00000001', title: 'LMA insertion', channel: 'Airway Academy' };
const question = 'How do you insert a laryngeal mask airway?';

let fake: FakeLlm;
const logger = createLogger('analyst-test');
logger.level = 'silent';

function llmWith(env: Record<string, string> = {}): Llm {
  const config = llmEnvSchema.parse({
    LLM_BASE_URL: fake.baseUrl,
    LLM_PRIMARY_MODEL: 'primary',
    LLM_FALLBACK_MODEL: 'fallback',
    LLM_MAX_RETRIES: '0',
    ...env,
  });
  return createLlm(config, { logger })!;
}

const analyze = (llm = llmWith(), signal?: AbortSignal) => analyzeTranscript({ llm, question, video, windows, signal });

/** Each finding's quote lies in its window, and carries that window's time range. */
function expectGrounded(findings: Awaited<ReturnType<typeof analyze>>['findings']) {
  expect(checkQuotedFindings(findings, windows).issues).toEqual([]);
  for (const finding of findings) {
    const window = windows.find((candidate) => candidate.index === finding.windowIndex)!;
    expect(finding).toMatchObject({ videoId: video.videoId, startMs: window.startMs, endMs: window.endMs });
    expect(window.text.toLowerCase()).toContain(finding.quote.toLowerCase());
  }
}

beforeAll(async () => {
  fake = await startFakeLlm({ port: 0 });
});
afterEach(() => fake.reset());
afterAll(() => fake.close());

describe('the transcript analyst against the fake LLM over HTTP', () => {
  it('accepts grounded findings in one call: each quote from its window, with the window’s time range', async () => {
    const { findings, diagnostics } = await analyze();

    expect(findings).toHaveLength(2);
    expectGrounded(findings);
    expect(diagnostics.map((item) => [item.stage, item.outcome, item.code])).toEqual([
      ['transcript_analysis', 'started', null],
      ['transcript_analysis', 'accepted', null],
    ]);
    for (const item of diagnostics) expect(transcriptDiagnosticSchema.parse(item)).toEqual(item);
    expect(diagnostics[1]).toMatchObject({
      version: 1,
      videoId: video.videoId,
      attempt: 1,
      modelCallId: diagnostics[0]!.modelCallId,
      attemptId: diagnostics[0]!.attemptId,
      finishReason: 'stop',
      modelId: 'primary',
      inputTokens: expect.any(Number),
      outputTokens: expect.any(Number),
      issues: [],
      issueCount: 0,
      sourceContext: { title: video.title, channel: video.channel },
      sourceWindows: windows.map(({ index, startMs, endMs, text }) => ({ index, startMs, endMs, text })),
      captureTruncated: false,
    });
    // The model read the windows numbered by their index, and the question.
    const [asked] = fake.requests();
    expect(asked!.prompt).toContain(`[5] ${windows[1]!.text}`);
    expect(asked!.prompt).toContain(question);
  });

  it('rejects an ungrounded answer (GROUNDING_REJECTED, issues listed), repairs it once with feedback naming them', async () => {
    fake.setBehaviour('*', 'unground-once');
    const { findings, diagnostics } = await analyze();

    expectGrounded(findings);
    expect(findings).toHaveLength(2);
    expect(diagnostics.map((item) => [item.stage, item.outcome, item.code])).toEqual([
      ['transcript_analysis', 'started', null],
      ['transcript_analysis', 'rejected', 'GROUNDING_REJECTED'],
      ['repair', 'started', null],
      ['repair', 'repaired', null],
    ]);
    const rejected = diagnostics[1]!;
    expect(rejected.issues.map((issue) => [issue.code, issue.findingIndex])).toEqual([
      ['QUOTE_NOT_IN_WINDOW', 0],
      ['ENTITY_NOT_SUPPORTED', 0],
      ['WINDOW_OUT_OF_RANGE', 1],
    ]);
    expect(rejected.issueCount).toBe(3);
    expect(JSON.parse(rejected.rejectedOutput!).findings).toHaveLength(2);
    expect(diagnostics[3]).toMatchObject({
      attempt: 2,
      attemptId: rejected.attemptId,
      repairFeedback: expect.stringContaining('QUOTE_NOT_IN_WINDOW'),
    });
    expect(diagnostics[3]!.modelCallId).not.toBe(rejected.modelCallId);
    // One repair call, sent the feedback: two requests in all.
    const requests = fake.requests();
    expect(requests).toHaveLength(2);
    for (const code of ['QUOTE_NOT_IN_WINDOW', 'ENTITY_NOT_SUPPORTED', 'WINDOW_OUT_OF_RANGE']) expect(requests[1]!.prompt).toContain(code);
  });

  it('drops every ungrounded finding when the repair is ungrounded too (repair failed, no second repair)', async () => {
    fake.setBehaviour('*', 'unground');
    const { findings, diagnostics } = await analyze();

    expect(findings).toEqual([]);
    expect(diagnostics.map((item) => [item.stage, item.outcome, item.code])).toEqual([
      ['transcript_analysis', 'started', null],
      ['transcript_analysis', 'rejected', 'GROUNDING_REJECTED'],
      ['repair', 'started', null],
      ['repair', 'failed', 'GROUNDING_REJECTED'],
    ]);
    expect(diagnostics[3]!.issueCount).toBeGreaterThan(0);
    expect(fake.requests()).toHaveLength(2);
  });

  it('uses the fallback model when the primary fails, and names it', async () => {
    fake.setBehaviour('primary', 'fail');
    const { findings, diagnostics } = await analyze();

    expectGrounded(findings);
    expect(diagnostics[1]).toMatchObject({ outcome: 'accepted', modelId: 'fallback' });
  });

  it('ends with MODEL_FAILED (and the HTTP status) when no model answers', async () => {
    fake.setBehaviour('*', 'fail');
    const { findings, diagnostics } = await analyze();

    expect(findings).toEqual([]);
    expect(diagnostics.map((item) => [item.outcome, item.code])).toEqual([
      ['started', null],
      ['failed', 'MODEL_FAILED'],
    ]);
    expect(diagnostics[1]).toMatchObject({ statusCode: 500, modelId: 'fallback' });
  });

  it('ends with TIMEOUT when every model times out, and when the run’s time runs out mid-call', async () => {
    fake.setBehaviour('*', 'timeout');
    const timedOut = await analyze(llmWith({ LLM_TIMEOUT_MS: '100' }));
    expect(timedOut.diagnostics.at(-1)).toMatchObject({ outcome: 'failed', code: 'TIMEOUT', cancellationReason: null });

    const cut = await analyze(llmWith(), AbortSignal.timeout(100));
    expect(cut.findings).toEqual([]);
    expect(cut.diagnostics.at(-1)).toMatchObject({ outcome: 'failed', code: 'TIMEOUT', cancellationReason: 'run_time_limit' });
  });
});
