export { createYouTubeClient, defaultClientOptions, type YouTubeClient, type YouTubeClientOptions } from './client';
export { YouTubeError, type YouTubeErrorCode, type YouTubeErrorReason } from './errors';
export type { NewestCommentsOptions } from './operations/get-newest-comments';
export type { CaptionFormat, TranscriptOptions } from './operations/get-transcript';
export { searchParams, type SearchFilter, type SearchOptions } from './operations/search';
export * from './shapes';
export type { PlayerAttempt } from './operations/fetch-player';
export type { StoryboardSource } from './operations/get-storyboard';
export * from './storyboards/storyboard-spec';
