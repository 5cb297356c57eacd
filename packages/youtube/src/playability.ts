import { notFoundError, YouTubeError } from './errors';

interface RawText {
  simpleText?: string;
  runs?: { text?: string }[];
}

interface RawPlayability {
  status?: string;
  reason?: string;
  messages?: string[];
  errorScreen?: { playerErrorMessageRenderer?: { reason?: RawText; subreason?: RawText } };
}

function plain(text: RawText | undefined): string {
  return text?.simpleText ?? text?.runs?.map((run) => run.text ?? '').join('') ?? '';
}

type RestrictionCode = Exclude<
  YouTubeError['code'],
  'VIDEO_UNAVAILABLE' | 'TRANSCRIPT_UNAVAILABLE' | 'UPSTREAM_UNAVAILABLE' | 'PLAYLIST_NOT_FOUND' | 'CHANNEL_NOT_FOUND'
>;

const restrictionMessages: Record<RestrictionCode, string> = {
  VIDEO_AGE_RESTRICTED: 'The video is age-restricted: YouTube shows it only to signed-in adults.',
  VIDEO_PRIVATE: 'The video is private.',
  VIDEO_MEMBERS_ONLY: "The video is for the channel's paying members only.",
  VIDEO_PAID: 'The video needs a purchase or a paid subscription (YouTube Premium, Music Premium, a rental).',
  VIDEO_REGION_BLOCKED: 'The video is not available in the region we reach YouTube from.',
  VIDEO_LIVE_NOT_ENDED: 'The video is a live stream or premiere that has not ended.',
  VIDEO_RESTRICTED: 'YouTube does not play the video to signed-out viewers, without naming the restriction.',
};

function restricted(code: RestrictionCode, reason: YouTubeError['reason'], platformReason?: string): YouTubeError {
  return new YouTubeError({ code, reason, platformReason, message: restrictionMessages[code] });
}

function unavailable(platformReason: string): YouTubeError {
  return notFoundError('VIDEO_UNAVAILABLE', platformReason, 'The video does not exist or is no longer available.');
}

/**
 * Hand-written because youtubei.js turns an empty player body (`{}`, what YouTube now answers for
 * invalid and removed ids) into an object of undefineds instead of an error, and does not tell
 * the restriction cases apart. Classification reads YouTube's own texts, as recorded by NewPipe
 * and youtube-transcript-api: status first, then reason, subreason and messages together.
 */
export function playabilityError(playerResponse: Record<string, unknown> | undefined): YouTubeError | undefined {
  const playability = playerResponse?.playabilityStatus as RawPlayability | undefined;
  if (!playability?.status) return unavailable('YouTube answered with an empty player response');
  const { status } = playability;
  if (status === 'OK' || status === 'LIVE_STREAM_OFFLINE') return undefined;
  const screen = playability.errorScreen?.playerErrorMessageRenderer;
  const reason = playability.reason ?? plain(screen?.reason);
  const subreason = plain(screen?.subreason);
  const platformReason = [reason, subreason].filter(Boolean).join(' — ') || status;
  const allText = [reason, subreason, ...(playability.messages ?? [])].join(' ');

  if (status === 'ERROR') return unavailable(platformReason);
  if (/not a bot/i.test(allText)) {
    return new YouTubeError({
      code: 'UPSTREAM_UNAVAILABLE',
      reason: 'bot_check',
      platformReason,
      message: `YouTube asked to confirm this is not a bot: ${platformReason}`,
    });
  }
  if (status === 'LOGIN_REQUIRED') {
    if (/private/i.test(allText)) return restricted('VIDEO_PRIVATE', 'private', platformReason);
    // Every other recorded sign-in wall ("confirm your age", "may be inappropriate") is the age gate.
    return restricted('VIDEO_AGE_RESTRICTED', 'age', platformReason);
  }
  if (status === 'UNPLAYABLE' || status === 'CONTENT_CHECK_REQUIRED' || status === 'AGE_CHECK_REQUIRED') {
    // "only available to Music Premium members" names members too: premium is tested first.
    if (/premium/i.test(allText)) return restricted('VIDEO_PAID', 'premium', platformReason);
    if (/members/i.test(allText)) return restricted('VIDEO_MEMBERS_ONLY', 'members_only', platformReason);
    if (/purchase|\brent|payment|\bpaid\b/i.test(allText)) return restricted('VIDEO_PAID', 'paid', platformReason);
    if (/country|region/i.test(allText)) return restricted('VIDEO_REGION_BLOCKED', 'region', platformReason);
    if (/\blive\b|premiere/i.test(allText)) return restricted('VIDEO_LIVE_NOT_ENDED', 'live_not_ended', platformReason);
    if (/sign in|\bage\b|inappropriate/i.test(allText) || status !== 'UNPLAYABLE') {
      return restricted('VIDEO_AGE_RESTRICTED', 'age', platformReason);
    }
    // A player that still describes the video says it exists: restricted, not unavailable.
    if (playerResponse?.videoDetails) return restricted('VIDEO_RESTRICTED', 'restricted', platformReason);
  }
  return unavailable(platformReason);
}

/**
 * A live stream still broadcasting, or one (or a premiere) not started yet: its player plays, but
 * the captions of the whole video exist only once it has ended.
 */
export function liveNotEndedError(playerResponse: Record<string, unknown>): YouTubeError | undefined {
  const playability = playerResponse.playabilityStatus as RawPlayability | undefined;
  const status = playability?.status;
  const details = playerResponse.videoDetails as { isLive?: boolean; isUpcoming?: boolean } | undefined;
  if (status !== 'LIVE_STREAM_OFFLINE' && !details?.isLive && !details?.isUpcoming) return undefined;
  return restricted('VIDEO_LIVE_NOT_ENDED', 'live_not_ended', playability?.reason);
}
