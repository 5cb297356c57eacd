import sharp from 'sharp';
import { parseStoryboardSpec, storyboardSpecOf, type StoryboardLevel, type StoryboardSpec } from '@vrs/youtube';
import type { Recording } from './recordings';

/**
 * Storyboard sheets for the recorded videos. Nobody recorded the images, so the fake generates them:
 * a JPEG of `columns × rows` frames of the level's size, each frame a flat colour of its own (so a
 * test can tell frames and sheets apart), for every spec found in a recorded player response.
 */
export interface StoryboardSheets {
  /** The sheet at `/sb/<videoId>/storyboard3_L<level>/<name>.jpg`, or undefined when no recorded spec names it. */
  sheet(pathname: string): Promise<{ videoId: string; level: number; sheet: number; jpeg: Buffer } | undefined>;
  /** The request key fields of such a path (fault matching, hit counts), or null for other paths. */
  keyOf(pathname: string): { videoId: string; level: string; sheet: string } | null;
}

const sheetPath = /^\/sb\/([\w-]{11})\/storyboard3_L(\d+)\/([^/]+)\.jpg$/;
const playerEndpoints = new Set(['player', 'reel/reel_item_watch']);

function specsByVideo(recordings: readonly Recording[]): Map<string, StoryboardSpec> {
  const specs = new Map<string, StoryboardSpec>();
  for (const recording of recordings) {
    const videoId = recording.key.keys.videoId;
    if (!videoId || specs.has(videoId) || !playerEndpoints.has(recording.key.endpoint)) continue;
    try {
      const body = JSON.parse(recording.body) as Record<string, unknown>;
      const spec = storyboardSpecOf((body.playerResponse as Record<string, unknown> | undefined) ?? body);
      if (spec) specs.set(videoId, parseStoryboardSpec(spec));
    } catch {
      // Not a JSON player answer, or a spec the parser refuses: that video simply has no sheets here.
    }
  }
  return specs;
}

/** The sheet index a name stands for: `M3` → 3 for levels named `M$M`, 0 for a fixed name (`default`). */
function sheetIndexOf(level: StoryboardLevel, name: string): number | undefined {
  if (!level.name.includes('$M')) return name === level.name ? 0 : undefined;
  const [prefix, suffix] = level.name.split('$M') as [string, string];
  if (!name.startsWith(prefix) || !name.endsWith(suffix)) return undefined;
  const index = Number(name.slice(prefix.length, name.length - suffix.length));
  return Number.isInteger(index) && index >= 0 ? index : undefined;
}

async function renderSheet(level: StoryboardLevel, sheet: number): Promise<Buffer> {
  const { width, height, columns, rows } = level;
  const pixels = Buffer.alloc(width * columns * height * rows * 3);
  for (let y = 0; y < height * rows; y++) {
    for (let x = 0; x < width * columns; x++) {
      const frame = sheet * columns * rows + Math.floor(y / height) * columns + Math.floor(x / width);
      const offset = (y * width * columns + x) * 3;
      pixels[offset] = (frame * 37) % 256;
      pixels[offset + 1] = (frame * 91 + 64) % 256;
      pixels[offset + 2] = (frame * 53 + 128) % 256;
    }
  }
  return sharp(pixels, { raw: { width: width * columns, height: height * rows, channels: 3 } })
    .jpeg({ quality: 80 })
    .toBuffer();
}

export function createStoryboardSheets(recordings: readonly Recording[]): StoryboardSheets {
  const specs = specsByVideo(recordings);
  const rendered = new Map<string, Promise<Buffer>>();
  return {
    keyOf(pathname) {
      const match = sheetPath.exec(pathname);
      return match ? { videoId: match[1] as string, level: match[2] as string, sheet: match[3] as string } : null;
    },
    async sheet(pathname) {
      const match = sheetPath.exec(pathname);
      if (!match) return undefined;
      const [, videoId, levelText, name] = match as unknown as [string, string, string, string];
      const level = specs.get(videoId)?.levels[Number(levelText)];
      if (!level) return undefined;
      const sheet = sheetIndexOf(level, name);
      if (sheet === undefined || sheet >= level.sheetCount) return undefined;
      const cacheKey = `${videoId}/${level.level}/${sheet}`;
      let jpeg = rendered.get(cacheKey);
      if (!jpeg) {
        jpeg = renderSheet(level, sheet);
        rendered.set(cacheKey, jpeg);
      }
      return { videoId, level: level.level, sheet, jpeg: await jpeg };
    },
  };
}
