import type { TranscriptSegment } from '@vrs/contracts';
import { coverageOf } from './terms';

/** A passage of a transcript: the unit a finding is quoted from and a citation's time range lies in. */
export interface TranscriptWindow {
  videoId: string;
  index: number;
  startMs: number;
  endMs: number;
  text: string;
  /** Set for a storyboard frame the model described (its text says so); absent for caption windows. */
  source?: 'storyboard';
}

/** Windows span about this long (a few caption lines): enough context to quote, short enough to pin a moment. */
const windowMs = 20_000;

export function windowsOf(videoId: string, segments: readonly TranscriptSegment[]): TranscriptWindow[] {
  const windows: TranscriptWindow[] = [];
  let current: TranscriptWindow | undefined;
  for (const segment of segments) {
    const text = segment.text.replace(/\s+/g, ' ').trim();
    if (!text) continue;
    if (!current || segment.startMs - current.startMs >= windowMs) {
      current = { videoId, index: windows.length, startMs: segment.startMs, endMs: segment.endMs, text };
      windows.push(current);
    } else {
      current.endMs = Math.max(current.endMs, segment.endMs);
      current.text = `${current.text} ${text}`;
    }
  }
  return windows;
}

/** Windows that mention the topic, best first (ties: earlier video, earlier moment). */
export function rankWindows(windows: readonly TranscriptWindow[], terms: readonly string[]): (TranscriptWindow & { score: number })[] {
  return windows
    .map((window) => ({ ...window, score: coverageOf(window.text, terms) }))
    .filter((window) => window.score > 0)
    .sort((a, b) => b.score - a.score || a.startMs - b.startMs);
}
