import type { TranscriptSegment } from '@vrs/contracts';

export const subtitleContentTypes = {
  srt: 'application/x-subrip; charset=utf-8',
  vtt: 'text/vtt; charset=utf-8',
} as const;

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/** `hh:mm:ss,mmm` (SubRip) or `hh:mm:ss.mmm` (WebVTT). */
function clock(ms: number, separator: ',' | '.'): string {
  const hours = Math.floor(ms / 3_600_000);
  const minutes = Math.floor(ms / 60_000) % 60;
  const seconds = Math.floor(ms / 1_000) % 60;
  return `${pad(hours)}:${pad(minutes)}:${pad(seconds)}${separator}${pad(ms % 1_000, 3)}`;
}

/** WebVTT cue text is markup: `&`, `<` and `>` must be escaped (which also keeps `-->` out of it). */
function escapeVtt(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

/** One numbered cue per segment. Segment texts hold no line breaks, so no cue can end early. */
export function toSrt(segments: TranscriptSegment[]): string {
  return segments.map((s, index) => `${index + 1}\n${clock(s.startMs, ',')} --> ${clock(s.endMs, ',')}\n${s.text}\n`).join('\n');
}

export function toVtt(segments: TranscriptSegment[]): string {
  return `WEBVTT\n\n${segments.map((s) => `${clock(s.startMs, '.')} --> ${clock(s.endMs, '.')}\n${escapeVtt(s.text)}\n`).join('\n')}`;
}
