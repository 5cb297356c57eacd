import type { ChangedItem } from '@vrs/contracts';
import type { MonitorState } from '../repo/monitors-repo';
import type { Observation } from './observe';

/** Ids remembered per monitor: enough for any page a check reads, bounded so a document never grows without end. */
export const maxSeenIds = 500;
/** Comment ids remembered per video monitor: ten pages of the newest comments a check reads. */
export const maxSeenCommentIds = 200;
/** A velocity jump: at least this many times the previous rate… */
export const velocityJumpFactor = 2;
/** …and at least this many views gained since the last check (tiny videos don't page anyone). */
export const minViewGain = 50;
/** A comment jump: at least this many new comments, and at least this share of the previous count. */
export const minCommentGain = 10;
export const minCommentGainShare = 0.1;

export interface Comparison {
  /** True when there was no saved state: this check saved the baseline and reports nothing. */
  baseline: boolean;
  changes: ChangedItem[];
  state: MonitorState;
}

/**
 * What is new since the saved state. The first check of a query is the baseline: it remembers what
 * is there and reports nothing, so a monitor never announces the whole first page as "new".
 */
export function compare(previous: MonitorState | null, observation: Observation, now: number): Comparison {
  switch (observation.kind) {
    case 'items': {
      const uploads = unseen(previous?.seenIds, observation.items, maxSeenIds);
      return { baseline: !previous, changes: uploads.changes, state: { seenIds: uploads.ids } };
    }
    case 'channel': {
      const uploads = unseen(previous?.seenIds, observation.uploads, maxSeenIds);
      const playlists = unseen(previous?.playlistIds, observation.playlists, maxSeenIds);
      return {
        baseline: !previous,
        changes: [...uploads.changes, ...playlists.changes],
        state: { seenIds: uploads.ids, playlistIds: playlists.ids },
      };
    }
    case 'video':
      return compareVideo(previous, observation, now);
  }
}

/**
 * The items whose ids are not among `seenIds` (each once), and the ids to remember, newest first,
 * bounded. No `seenIds` yet is a baseline: everything is remembered, nothing is new.
 */
function unseen(seenIds: string[] | undefined, items: ChangedItem[], bound: number): { changes: ChangedItem[]; ids: string[] } {
  if (!seenIds) return { changes: [], ids: [...new Set(items.map((item) => item.id))].slice(0, bound) };
  const seen = new Set(seenIds);
  const changes = items.filter((item, index) => !seen.has(item.id) && items.findIndex((other) => other.id === item.id) === index);
  return { changes, ids: [...changes.map((item) => item.id), ...seenIds].slice(0, bound) };
}

function compareVideo(previous: MonitorState | null, observation: Extract<Observation, { kind: 'video' }>, now: number): Comparison {
  const { viewCount, commentCount } = observation;
  const last = previous?.video;
  const comments = unseen(last ? previous?.commentIds : undefined, observation.comments, maxSeenCommentIds);
  if (!last)
    return {
      baseline: true,
      changes: [],
      state: { seenIds: [], video: { viewCount, commentCount, at: now, viewsPerHour: null }, commentIds: comments.ids },
    };
  const hours = Math.max((now - last.at) / 3_600_000, 1 / 60);
  const viewGain = viewCount - last.viewCount;
  const viewsPerHour = Math.max(0, viewGain) / hours;
  const commentGain = commentCount - last.commentCount;
  const velocityJump =
    last.viewsPerHour !== null && viewGain >= minViewGain && viewsPerHour >= velocityJumpFactor * Math.max(last.viewsPerHour, 1);
  const commentJump = commentGain >= minCommentGain && commentGain >= minCommentGainShare * last.commentCount;
  const state: MonitorState = { seenIds: [], video: { viewCount, commentCount, at: now, viewsPerHour }, commentIds: comments.ids };
  const jump: ChangedItem[] =
    velocityJump || commentJump
      ? [{ ...observation.item, viewCount, previousViewCount: last.viewCount, commentCount, previousCommentCount: last.commentCount }]
      : [];
  return { baseline: false, changes: [...jump, ...comments.changes], state };
}
