import type { Logger } from '@vrs/kit';
import type { ShapeFallback } from '@vrs/youtube';

/** Kinds of fallback counted one by one; past them, new kinds are counted together as one. */
const maxKinds = 1_000;
const otherKinds = 'other kinds, past the first 1,000';

function isPowerOfTen(n: number): boolean {
  let rest = n;
  while (rest % 10 === 0) rest /= 10;
  return rest === 1;
}

/**
 * The YouTube client's `onShapeFallback` for a process: each kind of comment page YouTube sent in a
 * shape our JSON reading does not know (page and reason) is logged the first time, then at its 10th,
 * 100th, 1,000th… time with its count. The answers are unchanged (youtubei.js reads the page), but
 * slower, and a new shape is how a change on YouTube's side first shows (ADR 0054).
 */
export function logShapeFallbacks(logger: Logger): (fallback: ShapeFallback) => void {
  const counts = new Map<string, number>();
  return (fallback) => {
    let { page, reason } = fallback;
    if (!counts.has(`${page}\n${reason}`) && counts.size >= maxKinds) reason = otherKinds;
    const key = `${page}\n${reason}`;
    const count = (counts.get(key) ?? 0) + 1;
    counts.set(key, count);
    if (isPowerOfTen(count))
      logger.warn(
        { page, reason, count },
        'a YouTube comment page had a shape our JSON reading does not know; read through youtubei.js instead',
      );
  };
}
