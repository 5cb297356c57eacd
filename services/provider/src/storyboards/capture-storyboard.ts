import { performance } from 'node:perf_hooks';
import type { ExtractionEvent, ExtractionFailureKind, GetStoryboardInput, StoryboardCapture, StoryboardSheet } from '@vrs/contracts';
import {
  parseStoryboardSpec,
  storyboardFrameMs,
  storyboardSheetUrl,
  StoryboardSpecError,
  YouTubeError,
  type StoryboardLevel,
  type StoryboardSpec,
  type YouTubeClient,
} from '@vrs/youtube';
import { convertSheet, SheetConversionError } from './convert-sheet';

/** Bounds of one capture: what a sheet may weigh before and after conversion. */
const limits = { maxInputBytes: 2_000_000, maxEdge: 1280, maxBytes: 300_000 };

class DeadlinePassed extends Error {}

interface Failure {
  kind: ExtractionFailureKind;
  status?: number;
  code: string;
}

/** A YouTube failure as the diagnostics name it: a timeout, or an HTTP-level error (with its status when there was one). */
function failureOfUpstream(error: unknown): Failure {
  if (error instanceof DeadlinePassed) return { kind: 'timeout', code: 'TIMEOUT' };
  if (error instanceof YouTubeError) {
    return error.reason === 'timeout'
      ? { kind: 'timeout', code: error.code }
      : { kind: 'http_error', code: error.code, ...(error.httpStatus ? { status: error.httpStatus } : {}) };
  }
  return { kind: 'http_error', code: 'UPSTREAM_UNAVAILABLE' };
}

/** The level with the largest frames: the most a model can see on the few sheets it is given. */
function chooseLevel(spec: StoryboardSpec): StoryboardLevel {
  return spec.levels.reduce((best, level) => (level.width * level.height > best.width * best.height ? level : best));
}

/** Up to `count` sheet indexes spread evenly over the level, so the frames cover the whole video. */
function sheetsToFetch(level: StoryboardLevel, count: number): number[] {
  if (level.sheetCount <= count) return Array.from({ length: level.sheetCount }, (_, index) => index);
  if (count === 1) return [0];
  return [...new Set(Array.from({ length: count }, (_, i) => Math.round((i * (level.sheetCount - 1)) / (count - 1))))];
}

/**
 * Reads a video's storyboard: the player response, its spec, a level, up to `maxSheets` sheets side by
 * side, each converted to WebP. Never throws for YouTube's failures: a failed attempt is recorded like
 * a successful one, so the capture says what happened. Work past the deadline counts as a timeout.
 */
export async function captureStoryboard(
  youtube: YouTubeClient,
  input: Required<GetStoryboardInput>,
  options: { egress?: StoryboardCapture['egress'] } = {},
): Promise<StoryboardCapture> {
  const { videoId } = input;
  const started = performance.now();
  const elapsed = (since = started) => Math.round(performance.now() - since);
  const events: ExtractionEvent[] = [];
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeadlinePassed()), input.timeoutMs);
  });
  // Unfinished work after the deadline is abandoned, not awaited (the client's own timeout ends it).
  deadline.catch(() => {});
  const beforeDeadline = <T>(work: Promise<T>) => Promise.race([work, deadline]);
  const ended = (capture: Omit<StoryboardCapture, 'videoId' | 'events' | 'elapsedMs' | 'egress'>): StoryboardCapture => {
    clearTimeout(timer);
    return { videoId, ...capture, events, elapsedMs: elapsed(), egress: options.egress ?? 'direct' };
  };

  let source: Awaited<ReturnType<YouTubeClient['getStoryboardSource']>>;
  let profile: string | undefined;
  try {
    source = await beforeDeadline(
      youtube.getStoryboardSource(videoId, {
        onAttempt: (attempt) => {
          if (attempt.outcome === 'selected') profile = attempt.client;
          events.push({
            stage: 'player',
            profile: attempt.client,
            outcome: attempt.outcome,
            elapsedMs: attempt.elapsedMs,
            ...(attempt.playabilityStatus ? { playabilityStatus: attempt.playabilityStatus } : {}),
            ...(attempt.code ? { code: attempt.code } : {}),
          });
        },
      }),
    );
  } catch (error) {
    // The video itself does not play (restricted, removed): there is no storyboard to read, nothing failed.
    if (error instanceof YouTubeError && error.code.startsWith('VIDEO_')) {
      return ended({ outcome: 'skipped', capture: 'unavailable', ...(error.httpStatus ? { status: error.httpStatus } : {}), sheets: [] });
    }
    const failure = failureOfUpstream(error);
    events.push({
      stage: 'player',
      outcome: 'failed',
      code: failure.code,
      elapsedMs: elapsed(),
      ...(failure.status ? { status: failure.status } : {}),
    });
    return ended({
      outcome: 'failure',
      capture: 'unavailable',
      failureKind: failure.kind,
      ...(failure.status ? { status: failure.status } : {}),
      sheets: [],
    });
  }
  const withProfile = profile ? { profile } : {};

  if (!source.spec) {
    events.push({ stage: 'spec', outcome: 'missing', specState: 'missing' });
    return ended({ outcome: 'skipped', capture: 'unavailable', ...withProfile, sheets: [] });
  }
  let spec: StoryboardSpec;
  try {
    spec = parseStoryboardSpec(source.spec);
  } catch (error) {
    if (!(error instanceof StoryboardSpecError)) throw error;
    events.push({ stage: 'spec', outcome: 'invalid', specState: 'invalid', code: 'SPEC_INVALID' });
    return ended({ outcome: 'failure', capture: 'available', failureKind: 'spec_invalid', ...withProfile, sheets: [] });
  }
  const level = chooseLevel(spec);
  const durationMs = source.durationMs ?? 0;
  events.push({
    stage: 'spec',
    outcome: 'parsed',
    specState: 'valid',
    candidateIndex: level.level,
    candidateCount: spec.levels.length,
    sheetCount: level.sheetCount,
    width: level.width,
    height: level.height,
  });
  const framesPerSheet = level.columns * level.rows;

  const read = async (index: number): Promise<StoryboardSheet | Failure> => {
    const firstFrame = index * framesPerSheet;
    const timestampMs = storyboardFrameMs(level, firstFrame, durationMs);
    const fetchStarted = performance.now();
    let body: Uint8Array;
    try {
      ({ body } = await beforeDeadline(
        youtube.getStoryboardSheet(storyboardSheetUrl(spec, level, index), { maxBytes: limits.maxInputBytes }),
      ));
    } catch (error) {
      const failure = failureOfUpstream(error);
      events.push({
        stage: 'sheet_fetch',
        outcome: 'failed',
        candidateIndex: index,
        timestampMs,
        code: failure.code,
        elapsedMs: elapsed(fetchStarted),
        ...(failure.status ? { status: failure.status } : {}),
      });
      return failure;
    }
    events.push({
      stage: 'sheet_fetch',
      outcome: 'fetched',
      candidateIndex: index,
      timestampMs,
      status: 200,
      inputBytes: body.byteLength,
      elapsedMs: elapsed(fetchStarted),
    });
    const convertStarted = performance.now();
    try {
      const sheet = await beforeDeadline(convertSheet(body, limits));
      events.push({
        stage: 'convert',
        outcome: 'converted',
        candidateIndex: index,
        inputFormat: sheet.inputFormat,
        outputFormat: 'webp',
        sourceWidth: sheet.sourceWidth,
        sourceHeight: sheet.sourceHeight,
        width: sheet.width,
        height: sheet.height,
        inputBytes: sheet.inputBytes,
        outputBytes: sheet.outputBytes,
        elapsedMs: elapsed(convertStarted),
      });
      const frameCount = Math.min(framesPerSheet, level.frameCount - firstFrame);
      return {
        index,
        webpBase64: sheet.webp.toString('base64'),
        width: sheet.width,
        height: sheet.height,
        inputBytes: sheet.inputBytes,
        outputBytes: sheet.outputBytes,
        firstFrame,
        frameCount,
        columns: level.columns,
        rows: level.rows,
        frameWidth: level.width,
        frameHeight: level.height,
        frameTimesMs: Array.from({ length: frameCount }, (_, k) => storyboardFrameMs(level, firstFrame + k, durationMs)),
      };
    } catch (error) {
      const kind = error instanceof SheetConversionError ? error.kind : error instanceof DeadlinePassed ? 'timeout' : 'decode_error';
      events.push({
        stage: 'convert',
        outcome: 'failed',
        candidateIndex: index,
        outputFormat: 'webp',
        inputBytes: body.byteLength,
        code: kind.toUpperCase(),
        elapsedMs: elapsed(convertStarted),
      });
      return { kind, code: kind.toUpperCase() };
    }
  };

  const results = await Promise.all(sheetsToFetch(level, input.maxSheets).map(read));
  const sheets = results.filter((result): result is StoryboardSheet => 'webpBase64' in result);
  const summary = {
    levelCount: spec.levels.length,
    level: level.level,
    frameWidth: level.width,
    frameHeight: level.height,
    frameCount: level.frameCount,
    columns: level.columns,
    rows: level.rows,
    intervalMs: level.intervalMs > 0 ? level.intervalMs : Math.round(durationMs / level.frameCount),
    sheetCount: level.sheetCount,
    durationMs: source.durationMs,
  };
  if (sheets.length > 0) return ended({ outcome: 'success', capture: 'available', status: 200, ...withProfile, spec: summary, sheets });
  const failure = results.find((result): result is Failure => !('webpBase64' in result)) as Failure;
  return ended({
    outcome: 'failure',
    capture: 'available',
    failureKind: failure.kind,
    ...(failure.status ? { status: failure.status } : {}),
    ...withProfile,
    spec: summary,
    sheets: [],
  });
}
