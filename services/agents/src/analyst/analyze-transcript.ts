import { randomUUID } from 'node:crypto';
import { checkQuotedFindings, type GenerateObjectResult, type GroundingIssue, type Llm } from '@vrs/ai';
import { AppError, required, type TraceContext } from '@vrs/kit';
import type { TranscriptWindow } from '../planner/windows';
import {
  type AnalystAnswer,
  analystAnswerSchema,
  analystPrompt,
  analystSystemPrompt,
  repairFeedbackOf,
  repairPrompt,
} from './analyst-prompt';
import type { TranscriptDiagnostic } from '@vrs/contracts';

/** Caps on what a diagnostic captures, so a run's diagnostics stay a few kilobytes per video. */
const captureCaps = { windowChars: 600, rejectedOutputChars: 4000 } as const;
/** One model call of the analysis: its first ask, or the repair. */
type Call = { stage: TranscriptDiagnostic['stage']; attempt: number; modelCallId: string };

/** A grounded finding: its quote occurs in the window it cites, whose time range it carries. */
export interface TranscriptFinding {
  videoId: string;
  claim: string;
  quote: string;
  windowIndex: number;
  startMs: number;
  endMs: number;
}

export interface AnalyzeTranscriptInput {
  llm: Llm;
  question: string;
  video: { videoId: string; title: string; channel: string };
  /** The windows the model reads (the best of the transcript), each cited by its `index`. */
  windows: readonly TranscriptWindow[];
  /** Aborts at the run's time limit: the call in flight ends as TIMEOUT. */
  signal?: AbortSignal;
  now?: () => number;
  /** The run's trace context: the model's attempts go under it (ADR 0117). */
  trace?: TraceContext;
}

export interface TranscriptAnalysis {
  findings: TranscriptFinding[];
  diagnostics: TranscriptDiagnostic[];
}

function capped(text: string, limit: number): { text: string; truncated: boolean } {
  return text.length > limit ? { text: text.slice(0, limit), truncated: true } : { text, truncated: false };
}

function failureOf(
  error: unknown,
  signal: AbortSignal | undefined,
): Pick<TranscriptDiagnostic, 'code' | 'modelId' | 'statusCode' | 'cancellationReason'> {
  if (signal?.aborted) return { code: 'TIMEOUT', modelId: null, statusCode: null, cancellationReason: 'run_time_limit' };
  const attempts =
    error instanceof AppError && error.code === 'AI_UNAVAILABLE'
      ? ((error.details as { attempts?: Array<{ model: string; outcome: string; statusCode?: number }> }).attempts ?? [])
      : [];
  const timedOut = attempts.length > 0 && attempts.every((attempt) => attempt.outcome === 'timeout');
  return {
    code: timedOut ? 'TIMEOUT' : 'MODEL_FAILED',
    modelId: attempts.at(-1)?.model ?? null,
    statusCode: attempts.find((attempt) => attempt.statusCode !== undefined)?.statusCode ?? null,
    cancellationReason: null,
  };
}

/**
 * The transcript analyst (ADR 0026): asks the model for findings quoting one transcript's windows and
 * holds them to those windows. An answer with any issue is rejected (GROUNDING_REJECTED) and repaired
 * once; only the last answer's grounded findings are returned. Every call is a diagnostic item; a
 * model failure (MODEL_FAILED) or TIMEOUT ends the analysis with what it has.
 */
export async function analyzeTranscript(input: AnalyzeTranscriptInput): Promise<TranscriptAnalysis> {
  const { llm, question, video, windows, signal, trace } = input;
  const now = input.now ?? Date.now;
  const source = { question, title: video.title, channel: video.channel, windows };
  const attemptId = randomUUID();
  const diagnostics: TranscriptDiagnostic[] = [];
  const captured = windows.map((window) => ({ window, ...capped(window.text, captureCaps.windowChars) }));
  const sourceWindows = captured.map(({ window, text }) => ({ index: window.index, startMs: window.startMs, endMs: window.endMs, text }));
  const windowsTruncated = captured.some(({ truncated }) => truncated);
  const byIndex = new Map(windows.map((window) => [window.index, window]));

  function record(call: Call, outcome: TranscriptDiagnostic['outcome'], fields: Partial<TranscriptDiagnostic> = {}): void {
    diagnostics.push({
      version: 1,
      stage: call.stage,
      videoId: video.videoId,
      modelCallId: call.modelCallId,
      attemptId,
      attempt: call.attempt,
      recordedAt: new Date(now()).toISOString(),
      outcome,
      elapsedMs: 0,
      code: null,
      finishReason: null,
      modelId: null,
      inputTokens: null,
      outputTokens: null,
      cancellationReason: null,
      statusCode: null,
      issues: [],
      issueCount: 0,
      repairFeedback: null,
      rejectedOutput: null,
      sourceContext: { title: video.title, channel: video.channel },
      sourceWindows,
      ...fields,
      captureTruncated: windowsTruncated || (fields.captureTruncated ?? false),
    });
  }

  /** The model's answer, or undefined when the call failed (recorded as such). */
  async function ask(call: Call, prompt: string, feedback: string | null) {
    record(call, 'started', { repairFeedback: feedback });
    const started = now();
    try {
      const result = await llm.generateObject({ schema: analystAnswerSchema, system: analystSystemPrompt, prompt, signal, trace });
      return { result, elapsedMs: now() - started };
    } catch (error) {
      record(call, 'failed', { elapsedMs: now() - started, repairFeedback: feedback, ...failureOf(error, signal) });
      return undefined;
    }
  }

  const modelFields = (answered: { result: GenerateObjectResult<AnalystAnswer>; elapsedMs: number }, feedback: string | null) => ({
    elapsedMs: answered.elapsedMs,
    finishReason: answered.result.finishReason,
    modelId: answered.result.model,
    inputTokens: answered.result.usage.inputTokens ?? null,
    outputTokens: answered.result.usage.outputTokens ?? null,
    repairFeedback: feedback,
  });
  const rejectedFields = (answer: AnalystAnswer, issues: GroundingIssue[]) => {
    const output = capped(JSON.stringify(answer), captureCaps.rejectedOutputChars);
    return {
      code: 'GROUNDING_REJECTED' as const,
      issues,
      issueCount: issues.length,
      rejectedOutput: output.text,
      captureTruncated: output.truncated,
    };
  };
  const grounded = (answer: AnalystAnswer) => {
    const check = checkQuotedFindings(answer.findings, windows);
    const findings = check.grounded.map(({ claim, quote, windowIndex }): TranscriptFinding => {
      const window = required(byIndex.get(windowIndex), `transcript window ${windowIndex}, which checkQuotedFindings found the quote in`);
      return { videoId: video.videoId, claim, quote, windowIndex, startMs: window.startMs, endMs: window.endMs };
    });
    return { findings, issues: check.issues };
  };

  const analysisCall = { stage: 'transcript_analysis' as const, attempt: 1, modelCallId: randomUUID() };
  const first = await ask(analysisCall, analystPrompt(source), null);
  if (!first) return { findings: [], diagnostics };
  const firstCheck = grounded(first.result.object);
  if (firstCheck.issues.length === 0) {
    record(analysisCall, 'accepted', modelFields(first, null));
    return { findings: firstCheck.findings, diagnostics };
  }
  record(analysisCall, 'rejected', { ...modelFields(first, null), ...rejectedFields(first.result.object, firstCheck.issues) });

  const feedback = repairFeedbackOf(firstCheck.issues);
  const repairCall = { stage: 'repair' as const, attempt: 2, modelCallId: randomUUID() };
  const second = await ask(repairCall, repairPrompt(source, first.result.object, feedback), feedback);
  if (!second) return { findings: firstCheck.findings, diagnostics };
  const secondCheck = grounded(second.result.object);
  if (secondCheck.issues.length === 0) {
    record(repairCall, 'repaired', modelFields(second, feedback));
  } else {
    record(repairCall, 'failed', { ...modelFields(second, feedback), ...rejectedFields(second.result.object, secondCheck.issues) });
  }
  return { findings: secondCheck.findings, diagnostics };
}
