/** What both caption formats parse into, before the transcript shape is assembled. */
export interface ParsedCue {
  startMs: number;
  endMs: number;
  text: string;
  /** Per-word timing, only where the caption body carries it. */
  words?: { startMs: number; text: string }[];
}

/** Collapses the line breaks and doubled spaces caption bodies use for layout. */
export function cleanText(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
