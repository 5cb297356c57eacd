import { toInt } from '../normalize/numbers';
import { storyboardSpecOf } from '../storyboards/storyboard-spec';
import type { Upstream } from '../transport/upstream';
import { fetchPlayer, type PlayerAttempt } from './fetch-player';

export interface StoryboardSource {
  /** The raw spec string; absent when the player response has none (live streams, some shorts). */
  spec?: string;
  /** From the player's `videoDetails.lengthSeconds`; null when it gives none. */
  durationMs: number | null;
}

/** The storyboard spec of the player response the client chain selects; each client's turn is reported. */
export async function getStoryboardSource(
  upstream: Upstream,
  videoId: string,
  onAttempt?: (attempt: PlayerAttempt) => void,
): Promise<StoryboardSource> {
  const player = await fetchPlayer(upstream, videoId, onAttempt);
  const lengthSeconds = toInt((player.videoDetails as { lengthSeconds?: unknown } | undefined)?.lengthSeconds);
  const spec = storyboardSpecOf(player);
  return { ...(spec ? { spec } : {}), durationMs: lengthSeconds === null ? null : lengthSeconds * 1000 };
}
