export { createYouTubeClient, type YouTubeClient, type YouTubeClientOptions } from './client';
export { YouTubeError, type YouTubeErrorReason } from './errors';
export { searchParams } from './operations/search';
export * from './shapes';
export * from './storyboards/storyboard-spec';
