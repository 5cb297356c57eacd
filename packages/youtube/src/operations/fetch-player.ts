import { performance } from 'node:perf_hooks';
import { YouTubeError } from '../errors';
import { playabilityError } from '../playability';
import type { Upstream } from '../transport/upstream';
import { newCpn } from './cpn';

type Player = Record<string, unknown>;

interface PlayerClient {
  /** InnerTube's clientName, as the fake upstream and the logs know it. */
  name: string;
  /** False for a client asked only for its verdict: its masked answer carries no caption tracks. */
  playable: boolean;
  ask(upstream: Upstream, videoId: string): Promise<Player | undefined>;
}

const watchUrl = (videoId: string) => `https://www.youtube.com/watch?v=${videoId}`;

/**
 * The order mature extractors use (NewPipe, yt-dlp): the mobile app (captions without a PO token;
 * NewPipe's request, matching the 2026 recordings); on an age gate, the embedded TV player, which long
 * played age-restricted videos signed out; last the web player, masked as NewPipe masks it, for
 * YouTube's most precise wording.
 */
const playerClients: PlayerClient[] = [
  {
    name: 'ANDROID',
    playable: true,
    async ask(upstream, videoId) {
      const wrapper = await upstream.raw('/reel/reel_item_watch?$fields=playerResponse', {
        client: 'ANDROID',
        playerRequest: { videoId, cpn: newCpn(), contentCheckOk: true, racyCheckOk: true },
        disablePlayerResponse: false,
      });
      return wrapper.playerResponse as Player | undefined;
    },
  },
  {
    name: 'TVHTML5_SIMPLY_EMBEDDED_PLAYER',
    playable: true,
    ask: (upstream, videoId) =>
      upstream.raw('/player', {
        client: 'TV_EMBEDDED',
        videoId,
        cpn: newCpn(),
        contentCheckOk: true,
        racyCheckOk: true,
        playbackContext: { contentPlaybackContext: { referer: watchUrl(videoId) } },
      }),
  },
  {
    name: 'WEB',
    playable: false,
    ask: (upstream, videoId) =>
      upstream.raw('/player?$fields=microformat,playabilityStatus,storyboards,videoDetails', {
        videoId,
        contentCheckOk: true,
        racyCheckOk: true,
      }),
  },
];

/**
 * A refusal another client may not share: the age gate, a restriction YouTube does not name ("not
 * available on this device"), or this client's request refused outright (4xx).
 */
function anotherClientMayPlay(error: YouTubeError): boolean {
  if (error.code === 'VIDEO_AGE_RESTRICTED' || error.code === 'VIDEO_RESTRICTED') return true;
  return error.code === 'UPSTREAM_UNAVAILABLE' && error.reason === 'upstream_error' && !error.transient;
}

const isRestriction = (error: YouTubeError) => error.code.startsWith('VIDEO_') && error.code !== 'VIDEO_UNAVAILABLE';

/**
 * The most telling refusal: a restriction (the video exists, and why it does not play) over
 * "unavailable" over refused requests; among restrictions the latest client's (the web player's
 * wording is the most precise), among the rest the earliest.
 */
function verdictOf(refusals: YouTubeError[]): YouTubeError {
  return refusals.findLast(isRestriction) ?? refusals.find((error) => error.code === 'VIDEO_UNAVAILABLE') ?? (refusals[0] as YouTubeError);
}

/** One client's turn in the chain, for callers that report which client served (storyboard diagnostics). */
export interface PlayerAttempt {
  /** InnerTube's clientName. */
  client: string;
  /** `selected`: its answer is used; `refused`: it does not play the video; `verdict`: asked for its verdict only, it plays. */
  outcome: 'selected' | 'refused' | 'verdict';
  /** The player's `playabilityStatus.status`, when it answered one. */
  playabilityStatus?: string;
  /** The refusal's code (`VIDEO_AGE_RESTRICTED`, `UPSTREAM_UNAVAILABLE`, …). */
  code?: string;
  elapsedMs: number;
}

const playabilityStatusOf = (player: Player | undefined): string | undefined => {
  const status = (player?.playabilityStatus as { status?: unknown } | undefined)?.status;
  return typeof status === 'string' ? status : undefined;
};

/**
 * The player response of the first client that plays the video. The first client's answer is final
 * unless another client may play the video (see `anotherClientMayPlay`); once the chain has started,
 * later clients' refusals are collected and the most telling one is thrown. Outages (timeouts, 429,
 * 5xx, the open circuit) end the chain at once: asking more clients would only load a failing upstream.
 */
export async function fetchPlayer(upstream: Upstream, videoId: string, onAttempt?: (attempt: PlayerAttempt) => void): Promise<Player> {
  const refusals: YouTubeError[] = [];
  for (const client of playerClients) {
    let player: Player | undefined;
    const started = performance.now();
    const report = (outcome: PlayerAttempt['outcome'], extra: Partial<PlayerAttempt> = {}) =>
      onAttempt?.({ client: client.name, outcome, elapsedMs: Math.round(performance.now() - started), ...extra });
    try {
      player = await client.ask(upstream, videoId);
    } catch (error) {
      if (error instanceof YouTubeError) report('refused', { code: error.code });
      if (!(error instanceof YouTubeError) || !anotherClientMayPlay(error)) throw error;
      refusals.push(error);
      continue;
    }
    const error = playabilityError(player);
    const playabilityStatus = playabilityStatusOf(player);
    report(error ? 'refused' : client.playable ? 'selected' : 'verdict', {
      ...(playabilityStatus ? { playabilityStatus } : {}),
      ...(error ? { code: error.code } : {}),
    });
    if (!error && client.playable) return player as Player;
    if (!error) continue;
    if (refusals.length === 0 && !anotherClientMayPlay(error)) throw error;
    refusals.push(error);
  }
  throw verdictOf(refusals);
}
