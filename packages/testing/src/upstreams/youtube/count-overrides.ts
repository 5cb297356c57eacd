import type { RequestKey } from './request-key';

/** New public counts for one video, as if its audience had moved since the recording. */
export interface CountOverride {
  videoId: string;
  viewCount?: number;
  likeCount?: number;
  /** The count /next's comments panel shows (what the client reads as the video's comment count). */
  commentCount?: number;
}

// The player answers (ANDROID reel_item_watch, masked WEB player) are where the client reads counts.
const playerEndpoints = new Set(['reel/reel_item_watch', 'player']);

/**
 * Rewrites the counts of the player and /next answers of overridden videos, so a test can make "the
 * upstream's counts move" between two reads without another recording (trends snapshots, a
 * monitor's comment jump).
 */
export class CountOverrides {
  private readonly byVideo = new Map<string, CountOverride>();

  set(override: CountOverride): void {
    this.byVideo.set(override.videoId, { ...this.byVideo.get(override.videoId), ...override });
  }

  reset(): void {
    this.byVideo.clear();
  }

  apply(key: RequestKey | null, endpoint: string, body: string): string {
    const videoId = key?.keys.videoId;
    const override = videoId ? this.byVideo.get(videoId) : undefined;
    if (!override) return body;
    if (endpoint === 'next') return override.commentCount === undefined ? body : withCommentCount(body, override.commentCount);
    if (!playerEndpoints.has(endpoint)) return body;
    const answer = JSON.parse(body) as { playerResponse?: PlayerAnswer } & PlayerAnswer;
    for (const player of [answer, answer.playerResponse]) {
      if (!player) continue;
      const microformat = player.microformat?.playerMicroformatRenderer;
      if (override.viewCount !== undefined) {
        if (player.videoDetails?.viewCount !== undefined) player.videoDetails.viewCount = String(override.viewCount);
        if (microformat?.viewCount !== undefined) microformat.viewCount = String(override.viewCount);
      }
      if (override.likeCount !== undefined && microformat?.likeCount !== undefined) microformat.likeCount = String(override.likeCount);
    }
    return JSON.stringify(answer);
  }
}

function withCommentCount(body: string, commentCount: number): string {
  const answer = JSON.parse(body) as NextAnswer;
  for (const panel of answer.engagementPanels ?? []) {
    const section = panel.engagementPanelSectionListRenderer;
    const header = section?.header?.engagementPanelTitleHeaderRenderer;
    if (section?.panelIdentifier === 'engagement-panel-comments-section' && header?.contextualInfo)
      header.contextualInfo = { runs: [{ text: String(commentCount) }] };
  }
  return JSON.stringify(answer);
}

interface NextAnswer {
  engagementPanels?: {
    engagementPanelSectionListRenderer?: {
      panelIdentifier?: string;
      header?: { engagementPanelTitleHeaderRenderer?: { contextualInfo?: { runs: { text: string }[] } } };
    };
  }[];
}

interface PlayerAnswer {
  videoDetails?: { viewCount?: string };
  microformat?: { playerMicroformatRenderer?: { viewCount?: string; likeCount?: string } };
}
