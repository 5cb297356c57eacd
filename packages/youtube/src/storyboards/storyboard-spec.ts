/**
 * A video's storyboards, as the player response describes them in
 * `storyboards.playerStoryboardSpecRenderer.spec`: a sheet URL template, then one `|`-separated
 * entry per level, `width#height#frameCount#columns#rows#intervalMs#name#sigh`. A level's frames
 * are tiled `columns × rows` to a sheet; `$L` in the template is the level's position, `$N` the
 * sheet's name (the level's `name` with `$M` replaced by the sheet's index), and `sigh` is sent as
 * the `sigh` query parameter. Level 0 has interval 0: its frames spread evenly over the video.
 */
export interface StoryboardLevel {
  level: number;
  width: number;
  height: number;
  frameCount: number;
  columns: number;
  rows: number;
  /** Milliseconds between frames; 0 (level 0) means the frames spread evenly over the video. */
  intervalMs: number;
  name: string;
  sigh: string;
  sheetCount: number;
}

export interface StoryboardSpec {
  urlTemplate: string;
  levels: StoryboardLevel[];
}

/** The spec is missing a part or a number is not one; the message says which. */
export class StoryboardSpecError extends Error {}

const positive = (value: string | undefined, what: string, level: number, allowZero = false): number => {
  const number = Number(value);
  if (value === undefined || value === '' || !Number.isInteger(number) || number < 0 || (!allowZero && number === 0)) {
    throw new StoryboardSpecError(`level ${level}: ${what} is not a ${allowZero ? 'non-negative' : 'positive'} integer (${value})`);
  }
  return number;
};

export function parseStoryboardSpec(spec: string): StoryboardSpec {
  const [urlTemplate, ...entries] = spec.split('|');
  if (!urlTemplate || !/^https:\/\/[^/]+\//.test(urlTemplate) || !urlTemplate.includes('$N')) {
    throw new StoryboardSpecError('the sheet URL template is missing or has no $N');
  }
  if (entries.length === 0) throw new StoryboardSpecError('the spec names no level');
  const levels = entries.map((entry, level): StoryboardLevel => {
    const parts = entry.split('#');
    if (parts.length < 8) throw new StoryboardSpecError(`level ${level}: ${parts.length} fields, expected 8`);
    const [width, height, frameCount, columns, rows, intervalMs, name, sigh] = parts as [string, ...string[]];
    const parsed = {
      level,
      width: positive(width, 'width', level),
      height: positive(height, 'height', level),
      frameCount: positive(frameCount, 'frame count', level),
      columns: positive(columns, 'columns', level),
      rows: positive(rows, 'rows', level),
      intervalMs: positive(intervalMs, 'interval', level, true),
      name: name ?? '',
      sigh: sigh ?? '',
    };
    if (!parsed.name) throw new StoryboardSpecError(`level ${level}: no sheet name`);
    return { ...parsed, sheetCount: Math.ceil(parsed.frameCount / (parsed.columns * parsed.rows)) };
  });
  return { urlTemplate, levels };
}

/** The URL of sheet `index` of a level. */
export function storyboardSheetUrl(spec: StoryboardSpec, level: StoryboardLevel, index: number): string {
  const sheetName = level.name.replaceAll('$M', String(index));
  const url = spec.urlTemplate.replaceAll('$L', String(level.level)).replaceAll('$N', sheetName);
  // Appended as YouTube's player does, leaving the template's own query (sqp) byte for byte.
  return level.sigh ? `${url}${url.includes('?') ? '&' : '?'}sigh=${level.sigh}` : url;
}

/** Where frame `frame` (counted over the whole level) lies in the video, in milliseconds. */
export function storyboardFrameMs(level: StoryboardLevel, frame: number, durationMs: number): number {
  const step = level.intervalMs > 0 ? level.intervalMs : durationMs / level.frameCount;
  return Math.round(frame * step);
}

/** The spec string of a player response, if it has one. */
export function storyboardSpecOf(player: Record<string, unknown>): string | undefined {
  const storyboards = player.storyboards as { playerStoryboardSpecRenderer?: { spec?: unknown } } | undefined;
  const spec = storyboards?.playerStoryboardSpecRenderer?.spec;
  return typeof spec === 'string' && spec.length > 0 ? spec : undefined;
}
