import type { YTNodes } from 'youtubei.js';
import type { CaptionTrack } from '../shapes/video';

type Tracklist = InstanceType<typeof YTNodes.PlayerCaptionsTracklist>;

export interface CaptionCatalog {
  tracks: CaptionTrack[];
  baseUrls: Record<string, string>;
  translationLanguages: { languageCode: string; name: string }[];
}

/**
 * The track YouTube itself would show: the default caption track of the default audio track.
 * A manual track beats an auto-generated one, so an asr default yields to a manual track in the
 * same language when one exists.
 */
function defaultTrackIndex(tracklist: Tracklist): number {
  const tracks = tracklist.caption_tracks ?? [];
  const audio = tracklist.audio_tracks?.[tracklist.default_audio_track_index ?? 0];
  const declared = audio?.has_default_track ? audio.default_caption_track_index : undefined;
  const declaredTrack = declared === undefined ? undefined : tracks[declared];
  if (declared !== undefined && declaredTrack) {
    if (declaredTrack.kind !== 'asr') return declared;
    const manual = tracks.findIndex((t) => t.kind !== 'asr' && t.language_code === declaredTrack.language_code);
    return manual >= 0 ? manual : declared;
  }
  const firstManual = tracks.findIndex((t) => t.kind !== 'asr');
  return Math.max(firstManual, 0);
}

export function captionCatalog(tracklist: Tracklist | undefined): CaptionCatalog {
  const raw = tracklist?.caption_tracks ?? [];
  if (!tracklist || raw.length === 0) return { tracks: [], baseUrls: {}, translationLanguages: [] };
  const defaultIndex = defaultTrackIndex(tracklist);
  const tracks = raw.map(
    (track, index): CaptionTrack => ({
      id: track.vss_id,
      name: track.name.toString(),
      languageCode: track.language_code,
      kind: track.kind === 'asr' ? 'asr' : 'manual',
      isTranslatable: Boolean(track.is_translatable),
      isDefault: index === defaultIndex,
    }),
  );
  return {
    tracks,
    baseUrls: Object.fromEntries(raw.map((track) => [track.vss_id, track.base_url])),
    translationLanguages: (tracklist.translation_languages ?? []).map((language) => ({
      languageCode: language.language_code,
      name: language.language_name.toString(),
    })),
  };
}
