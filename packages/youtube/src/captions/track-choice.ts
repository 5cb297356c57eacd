import { YouTubeError } from '../errors';
import type { CaptionTrack } from '../shapes/video';
import type { CaptionCatalog } from './caption-tracks';

export interface TrackChoice {
  track: CaptionTrack;
  translateTo?: { languageCode: string; name: string };
}

function noCaptions(message: string): YouTubeError {
  return new YouTubeError({ code: 'TRANSCRIPT_UNAVAILABLE', reason: 'no_captions', message });
}

const baseLanguage = (code: string) => code.toLowerCase().split('-')[0];

/** Manual before auto-generated, exact language code before a regional variant of it. */
function inLanguage(tracks: CaptionTrack[], lang: string): CaptionTrack | undefined {
  const rank = (track: CaptionTrack) =>
    (track.kind === 'manual' ? 0 : 2) + (track.languageCode.toLowerCase() === lang.toLowerCase() ? 0 : 1);
  return tracks.filter((track) => baseLanguage(track.languageCode) === baseLanguage(lang)).sort((a, b) => rank(a) - rank(b))[0];
}

/**
 * The default source track (as YouTube marks it, manual before auto-generated); with `lang`, a
 * track in that language, and only when none exists a machine translation of the default track.
 */
export function chooseTrack(catalog: CaptionCatalog, options: { lang?: string; trackId?: string }): TrackChoice {
  const { tracks } = catalog;
  const [firstTrack] = tracks;
  if (!firstTrack) throw noCaptions('The video has no caption tracks');
  if (options.trackId) {
    const track = tracks.find((t) => t.id === options.trackId);
    if (!track) throw noCaptions(`The video has no caption track ${options.trackId}`);
    return { track };
  }
  const source = tracks.find((t) => t.isDefault) ?? firstTrack;
  if (!options.lang) return { track: source };
  const own = inLanguage(tracks, options.lang);
  if (own) return { track: own };
  const target = catalog.translationLanguages.find((l) => l.languageCode.toLowerCase() === options.lang?.toLowerCase());
  if (!source.isTranslatable || !target) {
    throw noCaptions(`No caption track in "${options.lang}" and YouTube offers no translation into it`);
  }
  return { track: source, translateTo: target };
}
