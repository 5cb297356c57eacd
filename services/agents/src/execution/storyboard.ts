import type { Llm } from '@vrs/ai';
import type { ExtractionDiagnostic, ExtractionEvent, StoryboardCapture, StoryboardSheet } from '@vrs/contracts';
import type { Logger } from '@vrs/kit';
import { z } from 'zod';
import type { ProviderClient } from '../clients';
import type { AgentsSettings } from '../config';
import type { Classification } from '../planner/classify';
import type { Gathered } from '../planner/gathered';
import type { TranscriptWindow } from '../planner/windows';
import { uuidOf } from '../procedures/runs/run-ids';
import type { RunDoc, RunsRepo } from '../repo/runs-repo';
import type { ToolOutcome, ToolPrice, ToolRunner } from './tool-runner';

/**
 * A storyboard read costs 2 credits when it delivers sheets (the player request, up to a few sheet
 * downloads and their conversion, like a fresh `getVideo`), the model call that describes them
 * included; a read that delivers nothing costs nothing (ADR 0026).
 */
export const storyboardPrice: ToolPrice = { fresh: 2, cached: 2 };
/** Items kept on a run, and events kept per item: the diagnostics stay a bounded part of the run. */
export const maxExtractionDiagnostics = 10;
export const maxEventsPerDiagnostic = 40;
/** Videos a run reads storyboards of: the named ones (up to five compared), or a topic run's top video. */
const maxStoryboardVideos = 5;

export interface StoryboardDeps {
  provider: ProviderClient;
  llm: Llm | null;
  runs: RunsRepo;
  settings: AgentsSettings;
  logger: Logger;
  now: () => number;
}

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
function frameTimesOf(sheets: readonly StoryboardSheet[]): number[] {
  return sheets.flatMap((sheet) => sheet.frameTimesMs);
}

function promptOf(question: string, capture: StoryboardCapture, title: string): string {
  const times = frameTimesOf(capture.sheets);
  const grid = capture.sheets[0]!;
  return [
    question,
    `Storyboard of the YouTube video "${title}" (${capture.videoId}): ${capture.sheets.length} image(s), each a grid of ${grid.columns} columns × ${grid.rows} rows of frames read left to right, top to bottom. Frames are numbered 1 to ${times.length} in that order across the images; the last image may have fewer frames.`,
    times.map((ms, i) => `Frame ${i + 1}: ${clock(ms)}`).join('; '),
  ].join('\n');
}

/** The question leads, so the model (and the fake LLM, which takes the first line as the topic) reads the frames for it. */
const systemOf = (question: string) =>
  `${question}\nYou look at storyboard frames of a YouTube video to answer the question above. Describe only what is visible in the frames that bears on it, naming each frame you describe by its number. Do not guess what is said.`;

/** The run's storyboard videos: named videos the run read, or a topic run's top result. */
function storyboardVideosOf(classification: Classification, gathered: Gathered): string[] {
  switch (classification.route.route) {
    case 'video_question':
    case 'video_comparison':
      return classification.videoIds.slice(0, maxStoryboardVideos).filter((videoId) => gathered.videos.has(videoId));
    case 'topic_research': {
      const [top] = gathered.videos.keys();
      return top ? [top] : [];
    }
    default:
      return [];
  }
}

interface Attempt {
  videoId: string;
  slot: number;
  toolCallId: string;
  outcome: ToolOutcome<StoryboardCapture>;
  modelEvents: ExtractionEvent[];
}

function diagnosticOf(run: RunDoc, attempt: Attempt, recordedAt: string): ExtractionDiagnostic {
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
  if (outcome.kind === 'stopped') {
    return {
      ...common,
      elapsedMs: 0,
      outcome: 'skipped',
      capture: 'unavailable',
      events: [],
      droppedEvents: 0,
      egress: 'direct',
      failureKind: 'budget',
    };
  }
  if (outcome.kind === 'failed') {
    // The provider did not answer at all: nothing reached YouTube that we know of.
    return {
      ...common,
      elapsedMs: 0,
      outcome: 'failure',
      capture: 'unavailable',
      events: [],
      droppedEvents: 0,
      egress: 'direct',
      failureKind: 'http_error',
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

/**
 * Storyboards of a `useStoryboard` run (ADR 0026): per video, the provider's `storyboards.get` as the
 * persisted tool step `get_storyboard:<videoId>`; its WebP sheets go to the model as images, and the
 * frames it describes become evidence (caption-like windows at the frames' moments, labelled as
 * described frames). Every attempt is recorded as an extraction diagnostic on the run. Without a
 * model nothing is read and a warning says so.
 */
export async function addStoryboardEvidence(
  deps: StoryboardDeps,
  runner: ToolRunner,
  run: RunDoc,
  classification: Classification,
  gathered: Gathered,
): Promise<void> {
  if (!classification.route.useStoryboard) return;
  const { llm } = deps;
  if (!llm) {
    gathered.warnings.push({
      code: 'STORYBOARD_UNAVAILABLE',
      message: 'Storyboard frames need a language model that reads images; none is configured, so the answer uses transcripts only.',
    });
    return;
  }
  const videoIds = storyboardVideosOf(classification, gathered);
  const { maxSheets, timeoutMs } = deps.settings.storyboard;

  const attempts = await Promise.all(
    videoIds.map(async (videoId, slot): Promise<Attempt> => {
      const outcome = await runner.call<StoryboardCapture>('get_storyboard', videoId, { videoId, maxSheets }, storyboardPrice, async () => {
        const capture = await deps.provider.storyboards.get.query({ videoId, maxSheets, timeoutMs });
        return { output: capture, cached: false, charged: capture.outcome === 'success' };
      });
      const attempt: Attempt = { videoId, slot, toolCallId: `get_storyboard:${videoId}`, outcome, modelEvents: [] };
      if (outcome.kind !== 'completed' || outcome.output.outcome !== 'success') {
        const why =
          outcome.kind === 'stopped'
            ? `not read (${outcome.reason})`
            : outcome.kind === 'failed'
              ? `could not be read (${outcome.code})`
              : outcome.output.outcome === 'skipped'
                ? 'has none to read'
                : `could not be read (${outcome.output.failureKind})`;
        gathered.warnings.push({
          code: 'STORYBOARD_UNAVAILABLE',
          message: `${videoId}: the storyboard ${why}; the answer uses transcripts only.`,
        });
        return attempt;
      }
      attempt.modelEvents.push(await describeFrames(llm, deps.logger, run, outcome.output, gathered));
      return attempt;
    }),
  );

  const recordedAt = new Date(deps.now()).toISOString();
  const items = attempts.map((attempt) => diagnosticOf(run, attempt, recordedAt));
  await deps.runs.setExtractionDiagnostics(
    run._id,
    items.slice(0, maxExtractionDiagnostics),
    items.length > maxExtractionDiagnostics,
    recordedAt,
  );
}

/** Hands the sheets to the model as WebP images; what it describes becomes windows at the frames' moments. */
async function describeFrames(
  llm: Llm,
  logger: Logger,
  run: RunDoc,
  capture: StoryboardCapture,
  gathered: Gathered,
): Promise<ExtractionEvent> {
  const times = frameTimesOf(capture.sheets);
  const intervalMs = capture.spec?.intervalMs ?? 0;
  const inputBytes = capture.sheets.reduce((sum, sheet) => sum + sheet.outputBytes, 0);
  const started = performance.now();
  const base = { stage: 'model_input' as const, inputFormat: 'webp', sheetCount: capture.sheets.length, inputBytes };
  try {
    const { object } = await llm.generateObject({
      schema: describedFrames(times.length),
      system: systemOf(run.message),
      prompt: promptOf(run.message, capture, gathered.videos.get(capture.videoId)?.title ?? capture.videoId),
      images: capture.sheets.map((sheet) => ({ data: sheet.webpBase64, mediaType: 'image/webp' })),
    });
    const seen = new Set<number>();
    for (const { frame, description } of object.frames) {
      if (seen.has(frame)) continue;
      seen.add(frame);
      const startMs = times[frame - 1]!;
      const window: TranscriptWindow = {
        videoId: capture.videoId,
        index: -frame,
        startMs,
        endMs: startMs + intervalMs,
        text: `Storyboard frame at ${clock(startMs)}, as the model describes it: ${description.trim()}`,
        source: 'storyboard',
      };
      gathered.windows.push(window);
    }
    return { ...base, outcome: 'sent', candidateCount: seen.size, elapsedMs: Math.round(performance.now() - started) };
  } catch (error) {
    logger.warn({ runId: run._id, videoId: capture.videoId, err: error }, 'storyboard frames could not be described');
    gathered.warnings.push({
      code: 'STORYBOARD_UNAVAILABLE',
      message: `${capture.videoId}: the model could not describe the storyboard frames; the answer uses transcripts only.`,
    });
    return { ...base, outcome: 'failed', code: 'AI_UNAVAILABLE', elapsedMs: Math.round(performance.now() - started) };
  }
}
