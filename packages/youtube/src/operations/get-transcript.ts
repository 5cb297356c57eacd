import { Parser, YTNodes } from 'youtubei.js';
import { captionCatalog, type CaptionCatalog } from '../captions/caption-tracks';
import { parseJson3 } from '../captions/json3';
import type { ParsedCue } from '../captions/parsed-captions';
import { parseSrv3 } from '../captions/srv3';
import { chooseTrack } from '../captions/track-choice';
import { upstreamError } from '../errors';
import type { Transcript, TranscriptWord } from '../shapes/transcript';
import type { VideoRecord } from '../shapes/video';
import type { Upstream } from '../transport/upstream';
import { liveNotEndedError } from '../playability';
import { fetchPlayer } from './fetch-player';

export type CaptionFormat = 'srv3' | 'json3';

export interface TranscriptOptions {
  /** Wanted language; translated from the default track only when no track has it. */
  lang?: string;
  /** A specific track by id (vssId, e.g. `a.en` for the auto-generated English track). */
  trackId?: string;
  /** srv3 by default: the synthetic caption fixtures exist in srv3 for every case. */
  format?: CaptionFormat;
  /** A stored video whose caption URLs are still valid saves the player request. */
  video?: VideoRecord;
}

// Caption URLs are signed with an `expire` time (epoch seconds); keep a margin for the request.
const expiryMarginMs = 60_000;

function stillValid(video: VideoRecord | undefined, now: number): video is VideoRecord {
  if (video?.isLive || video?.isUpcoming) return false;
  const urls = Object.values(video?.internal.captionBaseUrls ?? {});
  if (urls.length === 0) return false;
  return urls.every((url) => {
    const expire = Number(new URL(url).searchParams.get('expire'));
    return Number.isFinite(expire) && expire * 1000 > now + expiryMarginMs;
  });
}

async function catalogFor(upstream: Upstream, videoId: string, options: TranscriptOptions): Promise<CaptionCatalog> {
  if (stillValid(options.video, Date.now())) {
    const { captionTracks, internal } = options.video;
    return { tracks: captionTracks, baseUrls: internal.captionBaseUrls, translationLanguages: internal.translationLanguages };
  }
  const player = await fetchPlayer(upstream, videoId);
  const live = liveNotEndedError(player);
  if (live) throw live;
  return captionCatalog(Parser.parseResponse(player).captions?.as(YTNodes.PlayerCaptionsTracklist));
}

function assemble(cues: ParsedCue[]): { segments: Transcript['segments']; words?: TranscriptWord[] } {
  const segments = cues.map(({ startMs, endMs, text }) => ({ startMs, endMs, text }));
  if (!cues.some((cue) => cue.words)) return { segments };
  const words = cues.flatMap((cue, segment) =>
    (cue.words ?? [{ startMs: cue.startMs, text: cue.text }]).map((word, index, all) => ({
      startMs: word.startMs,
      // A word lasts until the next one starts; the last one until its cue ends.
      endMs: Math.max(word.startMs, all[index + 1]?.startMs ?? cue.endMs),
      text: word.text,
      segment,
    })),
  );
  return { segments, words };
}

export async function getTranscript(upstream: Upstream, videoId: string, options: TranscriptOptions = {}): Promise<Transcript> {
  const format = options.format ?? 'srv3';
  const catalog = await catalogFor(upstream, videoId, options);
  const { track, translateTo } = chooseTrack(catalog, options);
  const baseUrl = catalog.baseUrls[track.id];
  if (!baseUrl) throw new Error(`The caption catalog has no URL for track ${track.id}`);
  const url = new URL(baseUrl);
  url.searchParams.set('fmt', format);
  if (translateTo) url.searchParams.set('tlang', translateTo.languageCode);

  const body = await upstream.text(url.toString());
  if (body.trim() === '') {
    // What users report when YouTube wants a PO token: HTTP 200 and nothing in it.
    throw upstreamError('captions_withheld', `YouTube answered the ${track.id} caption request with an empty body (PO token required?)`);
  }
  let cues: ParsedCue[];
  try {
    cues = format === 'json3' ? parseJson3(body) : parseSrv3(body);
  } catch (error) {
    throw upstreamError('upstream_error', `Unreadable ${format} caption body: ${(error as Error).message}`, { transient: false });
  }
  if (cues.length === 0) throw upstreamError('upstream_error', `The ${format} caption body holds no cues`, { transient: false });

  const { segments, words } = assemble(cues);
  const warnings = words ? [] : ['The caption track has no word timing; words are omitted rather than estimated.'];
  return {
    videoId,
    track: { ...track, provenance: translateTo ? 'machine_translation' : track.kind },
    ...(translateTo ? { translatedTo: translateTo } : {}),
    segments,
    ...(words ? { words } : {}),
    text: segments.map((segment) => segment.text).join(' '),
    warnings,
  };
}
