import { YouTubeError } from './errors';

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

function restricted(reason: YouTubeError['reason'], platformReason: string): YouTubeError {
  return new YouTubeError({ code: 'VIDEO_RESTRICTED', reason, platformReason, message: `The video is restricted: ${platformReason}` });
}

function unavailable(platformReason: string): YouTubeError {
  return new YouTubeError({
    code: 'VIDEO_UNAVAILABLE',
    reason: 'not_found',
    platformReason,
    message: `The video is unavailable: ${platformReason}`,
  });
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
    if (/private/i.test(allText)) return restricted('private', platformReason);
    // Every other recorded sign-in wall ("confirm your age", "may be inappropriate") is the age gate.
    return restricted('age', platformReason);
  }
  if (status === 'UNPLAYABLE' || status === 'CONTENT_CHECK_REQUIRED' || status === 'AGE_CHECK_REQUIRED') {
    // "only available to Music Premium members" names members too: premium is tested first.
    if (/premium/i.test(allText)) return restricted('premium', platformReason);
    if (/members/i.test(allText)) return restricted('members_only', platformReason);
    if (/country|region/i.test(allText)) return restricted('region', platformReason);
    if (/sign in|age|inappropriate/i.test(allText) || status !== 'UNPLAYABLE') return restricted('age', platformReason);
  }
  return unavailable(platformReason);
}
