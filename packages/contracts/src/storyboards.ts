import { z } from 'zod';

/*
 * Storyboard capture (issue 8, ADR 0026): the provider's internal `storyboards.get` and the
 * vocabulary of the contract's Extraction diagnostic item and Extraction event.
 */

export const extractionStageSchema = z.enum(['player', 'spec', 'sheet_fetch', 'convert', 'model_input']);
export type ExtractionStage = z.infer<typeof extractionStageSchema>;
export const extractionOutcomeSchema = z.enum(['success', 'failure', 'skipped']);
export type ExtractionOutcome = z.infer<typeof extractionOutcomeSchema>;
export const extractionFailureKindSchema = z.enum(['timeout', 'http_error', 'spec_invalid', 'decode_error', 'budget']);
export type ExtractionFailureKind = z.infer<typeof extractionFailureKindSchema>;
export const storyboardSpecStateSchema = z.enum(['valid', 'missing', 'invalid']);

/** One thing that happened while capturing a storyboard (the contract's Extraction event). */
export type ExtractionEvent = {
  stage: ExtractionStage;
  /**
   * player: `selected` | `refused` | `verdict`; spec: `parsed` | `missing` | `invalid`;
   * sheet_fetch: `fetched` | `failed`; convert: `converted` | `failed`; model_input: `sent` | `failed`.
   */
  outcome: string;
  /** The player client (InnerTube clientName) the event is about. */
  profile?: string;
  playabilityStatus?: string;
  specState?: z.infer<typeof storyboardSpecStateSchema>;
  code?: string;
  status?: number;
  elapsedMs?: number;
  /** Where the sheet's first frame lies in the video. */
  timestampMs?: number;
  /** spec: the level chosen among `candidateCount`; sheet_fetch/convert: the sheet's index. */
  candidateIndex?: number;
  candidateCount?: number;
  attempt?: number;
  sheetCount?: number;
  width?: number;
  height?: number;
  sourceWidth?: number;
  sourceHeight?: number;
  inputFormat?: string;
  outputFormat?: string;
  inputBytes?: number;
  outputBytes?: number;
};

export const maxStoryboardSheets = 8;

export const getStoryboardInputSchema = z
  .object({
    videoId: z.string().regex(/^[\w-]{11}$/, 'must be an 11-character YouTube video id'),
    /** Sheets fetched at most, spread over the chosen level. */
    maxSheets: z.number().int().min(1).max(maxStoryboardSheets).default(3),
    /** The whole capture (player, sheets, conversion) ends by then; what is unfinished fails with `timeout`. */
    timeoutMs: z.number().int().min(100).max(60_000).default(15_000),
  })
  .strict();
export type GetStoryboardInput = z.input<typeof getStoryboardInputSchema>;

/** One storyboard sheet as WebP, ready to be an image input of a model. */
export interface StoryboardSheet {
  index: number;
  webpBase64: string;
  width: number;
  height: number;
  inputBytes: number;
  outputBytes: number;
  /** The frames on the sheet: the first one's position in the level, and where each lies in the video. */
  firstFrame: number;
  frameCount: number;
  columns: number;
  rows: number;
  frameWidth: number;
  frameHeight: number;
  frameTimesMs: number[];
}

export interface StoryboardSpecSummary {
  levelCount: number;
  level: number;
  frameWidth: number;
  frameHeight: number;
  frameCount: number;
  columns: number;
  rows: number;
  intervalMs: number;
  sheetCount: number;
  durationMs: number | null;
}

export interface StoryboardCapture {
  videoId: string;
  outcome: ExtractionOutcome;
  /** `available`: the player response had a storyboard spec; `unavailable`: none (or the player refused). */
  capture: 'available' | 'unavailable';
  failureKind?: ExtractionFailureKind;
  /** The HTTP status that decided the outcome: 200 when sheets were read, the failing answer's otherwise. */
  status?: number;
  /** The player client whose answer was used. */
  profile?: string;
  spec?: StoryboardSpecSummary;
  sheets: StoryboardSheet[];
  events: ExtractionEvent[];
  elapsedMs: number;
  /** How the provider reached YouTube: straight, or through its egress proxy. */
  egress: 'direct' | 'proxy';
}

/**
 * One storyboard attempt of an agent run (the contract's Extraction diagnostic item), version 1. A type,
 * not an interface: it is served where the OpenAPI schema is an open record.
 */
export type ExtractionDiagnostic = {
  version: 1;
  kind: 'storyboard';
  videoId: string;
  /** Derived from the run and the tool call, so a resumed run records the same attempt under the same id. */
  extractionId: string;
  attempt: number;
  /** The video's position among the run's storyboard reads (0-based). */
  slot: number;
  recordedAt: string;
  elapsedMs: number;
  outcome: ExtractionOutcome;
  capture: 'available' | 'unavailable';
  events: ExtractionEvent[];
  /** Events left out to keep the item bounded. */
  droppedEvents: number;
  /** The persisted step (`get_storyboard:<videoId>`) the attempt belongs to. */
  toolCallId: string;
  backend: 'worker';
  egress: 'direct' | 'proxy';
  status?: number;
  failureKind?: ExtractionFailureKind;
};
