import type { TranscriptSegment } from '@vrs/contracts';

export interface TranscriptChunk {
  startMs: number;
  endMs: number;
  text: string;
}

export interface ChunkLimits {
  /** A chunk may close at a sentence end once it holds this many characters. */
  minChars: number;
  /** A chunk closes after the segment that reaches this many characters, sentence end or not. */
  maxChars: number;
  /** …or that makes it span this long (captions without punctuation have no sentence ends). */
  maxDurationMs: number;
}

/** A few sentences: long enough to stand alone as a citation, short enough to point at one moment. */
export const defaultChunkLimits: ChunkLimits = { minChars: 160, maxChars: 480, maxDurationMs: 45_000 };

const sentenceEnd = /[.!?…]["'”’)\]]*$/;

/**
 * Groups consecutive transcript segments into citation-sized chunks. Chunks only ever split between
 * segments, so every chunk's `startMs` is the start of a real segment (a link to that moment plays
 * from the chunk's first word).
 */
export function chunkTranscript(segments: readonly TranscriptSegment[], limits: ChunkLimits = defaultChunkLimits): TranscriptChunk[] {
  const chunks: TranscriptChunk[] = [];
  let current: TranscriptChunk | undefined;
  for (const segment of segments) {
    const text = segment.text.replace(/\s+/g, ' ').trim();
    if (!text) continue;
    if (current) {
      current.text += ` ${text}`;
      current.endMs = segment.endMs;
    } else {
      current = { startMs: segment.startMs, endMs: segment.endMs, text };
    }
    const long = current.text.length >= limits.maxChars || current.endMs - current.startMs >= limits.maxDurationMs;
    if (long || (current.text.length >= limits.minChars && sentenceEnd.test(text))) {
      chunks.push(current);
      current = undefined;
    }
  }
  if (current) chunks.push(current);
  return chunks;
}
