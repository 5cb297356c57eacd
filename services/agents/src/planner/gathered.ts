import type { AgentWarning, Channel } from '@vrs/contracts';
import type { TranscriptWindow } from './windows';

export interface GatheredVideo {
  id: string;
  title: string;
  channelId: string;
  channelName: string;
  durationSeconds: number | null;
  viewCount: number | null;
}

export interface GatheredProjectEvidence {
  id: string;
  projectId: string;
  text: string;
  startMs?: number;
  entityId?: string;
}

/**
 * Why gathering stopped before its plan was done (for the model loop also: it ran out of model
 * steps, or no model answered); the answer is then composed from what was gathered, `partial` at best.
 */
export type StopReason = 'TOOL_CALL_LIMIT' | 'CREDIT_BUDGET_EXHAUSTED' | 'RUN_TIME_LIMIT' | 'MODEL_STEP_LIMIT' | 'MODEL_UNAVAILABLE';

/** Everything the tools of one run returned, as the answer is composed from it. */
export interface Gathered {
  videos: Map<string, GatheredVideo>;
  windows: TranscriptWindow[];
  projectEvidence: GatheredProjectEvidence[];
  channel?: Pick<Channel, 'id' | 'title' | 'handle' | 'description' | 'url' | 'subscriberCount' | 'videoCount'>;
  warnings: AgentWarning[];
  stoppedBy?: StopReason;
}

export const emptyGathered = (): Gathered => ({ videos: new Map(), windows: [], projectEvidence: [], warnings: [] });

/** A video met again keeps what was gathered of it first. */
export function addVideo(gathered: Gathered, video: GatheredVideo): void {
  if (!gathered.videos.has(video.id)) gathered.videos.set(video.id, video);
}

export const videoUrlOf = (videoId: string, startMs?: number) =>
  `https://www.youtube.com/watch?v=${videoId}${startMs === undefined ? '' : `&t=${Math.floor(startMs / 1000)}s`}`;
