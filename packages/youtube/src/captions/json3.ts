import { cleanText, type ParsedCue } from './parsed-captions';

interface Json3 {
  events?: { tStartMs?: number; dDurationMs?: number; segs?: { utf8?: string; tOffsetMs?: number }[] }[];
}

/**
 * json3: `events[]` with `tStartMs`/`dDurationMs` and `segs[]`; auto-generated tracks give each
 * word a seg with `tOffsetMs`. Events without segs define windows, and segs of only "\n" append
 * line breaks: neither carries text.
 */
export function parseJson3(body: string): ParsedCue[] {
  const json = JSON.parse(body) as Json3;
  const cues: ParsedCue[] = [];
  for (const event of json.events ?? []) {
    if (!event.segs || event.tStartMs === undefined) continue;
    const text = cleanText(event.segs.map((seg) => seg.utf8 ?? '').join(''));
    if (!text) continue;
    const startMs = event.tStartMs;
    const timed = event.segs.length > 1 || event.segs.some((seg) => seg.tOffsetMs !== undefined);
    const words = timed
      ? event.segs.map((seg) => ({ startMs: startMs + (seg.tOffsetMs ?? 0), text: cleanText(seg.utf8 ?? '') })).filter((word) => word.text)
      : undefined;
    cues.push({ startMs, endMs: startMs + (event.dDurationMs ?? 0), text, words });
  }
  return cues;
}
