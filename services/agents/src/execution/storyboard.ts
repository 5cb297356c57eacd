import type { Llm } from '@vrs/ai';
import type { AgentWarning, ExtractionDiagnostic, ExtractionEvent, StoryboardCapture, StoryboardSheet } from '@vrs/contracts';
import type { Logger, TraceContext } from '@vrs/kit';
import { z } from 'zod';
import type { TranscriptWindow } from '../planner/windows';
import { uuidOf } from '../procedures/runs/run-ids';
import type { RunDoc, RunsRepo } from '../repo/runs-repo';
import type { ToolOutcome } from './tool-runner';

/** Items kept on a run, and events kept per item: the diagnostics stay a bounded part of the run. */
export const maxExtractionDiagnostics = 10;
export const maxEventsPerDiagnostic = 40;
const describedFrames = (frameCount: number) =>
  z.object({
    frames: z
      .array(
        z.object({
          frame: z.number().int().min(1).max(frameCount).describe('The frame number, as listed in the prompt.'),
          description: z.string().min(1).max(400).describe('What the frame visibly shows that bears on the question.'),
        }),
      )
      .max(12),
  });

const clock = (ms: number) => {
  const seconds = Math.floor(ms / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
};

/** Where each frame handed to the model lies in the video, numbered 1..n in reading order across the sheets. */
const frameTimesOf = (sheets: readonly StoryboardSheet[]) => sheets.flatMap((sheet) => sheet.frameTimesMs);

function promptOf(question: string, capture: StoryboardCapture, title: string): string {
  const times = frameTimesOf(capture.sheets);
  const grid = capture.sheets[0];
  if (grid === undefined) throw new Error(`the storyboard of ${capture.videoId} has no sheets`);
  return [
    question,
    `Storyboard of the YouTube video "${title}" (${capture.videoId}): ${capture.sheets.length} image(s), each a grid of ${grid.columns} columns × ${grid.rows} rows of frames read left to right, top to bottom. Frames are numbered 1 to ${times.length} in that order across the images; the last image may have fewer frames.`,
    times.map((ms, i) => `Frame ${i + 1}: ${clock(ms)}`).join('; '),
  ].join('\n');
}

/** The question leads, so the model (and the fake LLM, which takes the first line as the topic) reads the frames for it. */
const systemOf = (question: string) =>
  `${question}\nYou look at storyboard frames of a YouTube video to answer the question above. Describe only what is visible in the frames that bears on it, naming each frame you describe by its number. Do not guess what is said.`;

/** One storyboard read of a run, in the order the run asked for them (`slot`). */
export interface StoryboardAttempt {
  videoId: string;
  slot: number;
  toolCallId: string;
  outcome: ToolOutcome<StoryboardCapture>;
  modelEvents: ExtractionEvent[];
}

function diagnosticOf(run: RunDoc, attempt: StoryboardAttempt, recordedAt: string): ExtractionDiagnostic {
  const common = {
    version: 1 as const,
    kind: 'storyboard' as const,
    videoId: attempt.videoId,
    extractionId: uuidOf(`${run._id}\n${attempt.toolCallId}\n1`),
    attempt: 1,
    slot: attempt.slot,
    recordedAt,
    toolCallId: attempt.toolCallId,
    backend: 'worker' as const,
  };
  const { outcome } = attempt;
  if (outcome.kind !== 'completed') {
    // Refused by a budget, the read was skipped; failed, the provider did not answer at all: nothing reached YouTube that we know of.
    const stopped = outcome.kind === 'stopped';
    return {
      ...common,
      elapsedMs: 0,
      outcome: stopped ? 'skipped' : 'failure',
      capture: 'unavailable',
      events: [],
      droppedEvents: 0,
      egress: 'direct',
      failureKind: stopped ? 'budget' : 'http_error',
    };
  }
  const capture = outcome.output;
  const events = [...capture.events, ...attempt.modelEvents];
  return {
    ...common,
    elapsedMs: capture.elapsedMs,
    outcome: capture.outcome,
    capture: capture.capture,
    events: events.slice(0, maxEventsPerDiagnostic),
    droppedEvents: Math.max(0, events.length - maxEventsPerDiagnostic),
    egress: capture.egress,
    ...(capture.status === undefined ? {} : { status: capture.status }),
    ...(capture.failureKind ? { failureKind: capture.failureKind } : {}),
  };
}

/** What a `useStoryboard` run without a model says: the frames need a model that reads images. */
export const storyboardWithoutModel = {
  code: 'STORYBOARD_UNAVAILABLE',
  message: 'Storyboard frames need a language model that reads images; none is configured, so the answer uses transcripts only.',
};

/** Why a storyboard read gave the model nothing to look at, as the warning says it. */
export function storyboardUnavailable(videoId: string, outcome: ToolOutcome<StoryboardCapture>): AgentWarning {
  const why =
    outcome.kind === 'stopped'
      ? `not read (${outcome.reason})`
      : outcome.kind === 'failed'
        ? `could not be read (${outcome.code})`
        : outcome.output.outcome === 'skipped'
          ? 'has none to read'
          : `could not be read (${outcome.output.failureKind})`;
  return { code: 'STORYBOARD_UNAVAILABLE', message: `${videoId}: the storyboard ${why}; the answer uses transcripts only.` };
}

/** Records the run's storyboard attempts as extraction diagnostics (ADR 0026), replacing the previous ones (a resume writes the same). */
export async function recordStoryboardAttempts(runs: RunsRepo, run: RunDoc, attempts: readonly StoryboardAttempt[], at: string) {
  const items = attempts.map((attempt) => diagnosticOf(run, attempt, at));
  await runs.setExtractionDiagnostics(run._id, items.slice(0, maxExtractionDiagnostics), items.length > maxExtractionDiagnostics, at);
}

export interface DescribedStoryboard {
  /** The frames the model described, as windows at their moments (labelled as described frames). */
  frames: TranscriptWindow[];
  /** The `model_input` event of the attempt's diagnostic. */
  event: ExtractionEvent;
  warning?: AgentWarning;
}

/** Asks the model what a storyboard's sheets show for the question; each frame described becomes a window, citable like captions. */
export async function describeStoryboard(
  llm: Llm,
  logger: Logger,
  run: RunDoc,
  capture: StoryboardCapture,
  title: string,
  /** The run's trace context: the model's attempts go under it (ADR 0117). */
  trace?: TraceContext,
): Promise<DescribedStoryboard> {
  const times = frameTimesOf(capture.sheets);
  const intervalMs = capture.spec?.intervalMs ?? 0;
  const inputBytes = capture.sheets.reduce((sum, sheet) => sum + sheet.outputBytes, 0);
  const started = performance.now();
  const base = { stage: 'model_input' as const, inputFormat: 'webp', sheetCount: capture.sheets.length, inputBytes };
  try {
    const { object } = await llm.generateObject({
      schema: describedFrames(times.length),
      system: systemOf(run.message),
      prompt: promptOf(run.message, capture, title),
      images: capture.sheets.map((sheet) => ({ data: sheet.webpBase64, mediaType: 'image/webp' })),
      trace,
    });
    const seen = new Set<number>();
    const frames: TranscriptWindow[] = [];
    for (const { frame, description } of object.frames) {
      if (seen.has(frame)) continue;
      seen.add(frame);
      const startMs = times[frame - 1];
      // A frame number past the storyboard's is the model's error: nothing to place.
      if (startMs === undefined) continue;
      frames.push({
        videoId: capture.videoId,
        index: -frame,
        startMs,
        endMs: startMs + intervalMs,
        text: `Storyboard frame at ${clock(startMs)}, as the model describes it: ${description.trim()}`,
        source: 'storyboard',
      });
    }
    return { frames, event: { ...base, outcome: 'sent', candidateCount: seen.size, elapsedMs: Math.round(performance.now() - started) } };
  } catch (error) {
    logger.warn({ runId: run._id, videoId: capture.videoId, err: error }, 'storyboard frames could not be described');
    return {
      frames: [],
      event: { ...base, outcome: 'failed', code: 'AI_UNAVAILABLE', elapsedMs: Math.round(performance.now() - started) },
      warning: {
        code: 'STORYBOARD_UNAVAILABLE',
        message: `${capture.videoId}: the model could not describe the storyboard frames; the answer uses transcripts only.`,
      },
    };
  }
}
