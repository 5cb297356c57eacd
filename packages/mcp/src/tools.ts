import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { FetchResult, VrsClient } from '@vrs/client';
import { timestamp, toolError, toolResult } from './tool-result';

const videoId = z.string().min(1).max(100).describe('YouTube video id, e.g. dQw4w9WgXcQ');
const json = (value: unknown) => JSON.stringify(value);

/**
 * Registers every tool on `server`: one public REST call each through `client` (so the caller's
 * credential, metering and rate limits apply exactly as over REST), answering JSON or text a model reads.
 */
export function registerTools(server: McpServer, client: VrsClient) {
  const { api } = client;
  /** One REST call (`api.GET(…)`), its data rendered as the tool's text. */
  const run = async <T>(call: () => Promise<FetchResult<T>>, render: (data: Exclude<T, undefined>) => string = json) => {
    try {
      const result = await client.send(call());
      return toolResult(result, render(result.data));
    } catch (error) {
      return toolError(error);
    }
  };
  const readOnly = { readOnlyHint: true, openWorldHint: true };

  server.registerTool(
    'search_youtube',
    {
      title: 'Search YouTube',
      description: 'Search YouTube videos by keywords. Returns ids, titles, channels, view counts and publish times.',
      inputSchema: { query: z.string().min(1).max(500).describe('Search keywords') },
      annotations: readOnly,
    },
    ({ query }) => run(() => api.GET('/providers/{provider}/search', { params: { path: { provider: 'youtube' }, query: { q: query } } })),
  );

  server.registerTool(
    'get_video',
    {
      title: 'Video metadata',
      description: 'Metadata of one YouTube video: title, channel, description, duration, views, likes, publish date, caption tracks.',
      inputSchema: { videoId },
      annotations: readOnly,
    },
    ({ videoId }) => run(() => api.GET('/providers/{provider}/videos/{id}', { params: { path: { provider: 'youtube', id: videoId } } })),
  );

  server.registerTool(
    'get_transcript',
    {
      title: 'Video transcript',
      description: 'The transcript of a YouTube video as timestamped lines "[mm:ss] text". Optionally in another language (translated).',
      inputSchema: { videoId, lang: z.string().min(2).max(20).optional().describe('Language code, e.g. en or de') },
      annotations: readOnly,
    },
    ({ videoId, lang }) =>
      run(
        () =>
          api.GET('/providers/{provider}/videos/{id}/transcript', {
            params: { path: { provider: 'youtube', id: videoId }, query: { detail: 'segments', lang } },
          }),
        (transcript) =>
          // The JSON answer: a string would be a subtitle file, which this call never asks for.
          typeof transcript === 'string'
            ? transcript
            : [
                `Transcript of ${transcript.videoId} (${transcript.translatedTo?.languageCode ?? transcript.track.languageCode})`,
                ...(transcript.segments ?? []).map((segment) => `[${timestamp(segment.startMs)}] ${segment.text}`),
              ].join('\n'),
      ),
  );

  server.registerTool(
    'get_comments',
    {
      title: 'Video comments',
      description: 'Top (or newest) comments of a YouTube video with authors, likes and reply counts.',
      inputSchema: {
        videoId,
        newest: z.boolean().optional().describe('Newest first instead of top comments'),
        limit: z.number().int().min(1).max(100).optional().describe('At most this many comments'),
      },
      annotations: readOnly,
    },
    ({ videoId, newest, limit }) =>
      run(
        () =>
          api.GET('/providers/{provider}/videos/{id}/comments', {
            // The API sizes only the newest-first collection; a page of top comments is YouTube's size, cut below.
            params: {
              path: { provider: 'youtube', id: videoId },
              query: newest ? { newest: 'true' as const, limit } : {},
            },
          }),
        (page) => json({ ...page, comments: limit ? page.comments.slice(0, limit) : page.comments }),
      ),
  );

  server.registerTool(
    'get_channel',
    {
      title: 'Channel',
      description: 'A YouTube channel (by id UC… or @handle): name, subscribers, description and recent uploads.',
      inputSchema: { channelId: z.string().min(1).max(200).describe('Channel id (UC…) or @handle') },
      annotations: readOnly,
    },
    ({ channelId }) =>
      run(() => api.GET('/providers/{provider}/channels/{id}', { params: { path: { provider: 'youtube', id: channelId } } })),
  );

  server.registerTool(
    'list_channel_playlists',
    {
      title: 'Channel playlists',
      description: "A YouTube channel's playlists with ids, titles and video counts.",
      inputSchema: { channelId: z.string().min(1).max(200).describe('Channel id (UC…) or @handle') },
      annotations: readOnly,
    },
    ({ channelId }) =>
      run(() => api.GET('/providers/{provider}/channels/{id}/playlists', { params: { path: { provider: 'youtube', id: channelId } } })),
  );

  server.registerTool(
    'get_playlist',
    {
      title: 'Playlist',
      description: 'A YouTube playlist: title, owner and its videos in order.',
      inputSchema: { playlistId: z.string().min(1).max(200).describe('Playlist id (PL…)') },
      annotations: readOnly,
    },
    ({ playlistId }) =>
      run(() => api.GET('/providers/{provider}/playlists/{id}', { params: { path: { provider: 'youtube', id: playlistId } } })),
  );

  server.registerTool(
    'trend_report',
    {
      title: 'Trend report',
      description:
        'What is trending on YouTube for a topic: top videos with trend score, band (Breakout/Rising/Steady/Cooling), views per hour and acceleration, plus a summary.',
      inputSchema: {
        topic: z.string().min(1).max(500).describe('The topic to research'),
        sampleSize: z.number().int().min(1).max(100).optional().describe('How many videos to sample'),
      },
      annotations: readOnly,
    },
    ({ topic, sampleSize }) =>
      run(
        () =>
          api.GET('/providers/{provider}/trends', {
            params: { path: { provider: 'youtube' }, query: { q: topic, sampleSize } },
          }),
        (report) =>
          json({
            query: report.query,
            summary: report.summary,
            confidence: report.confidence.level,
            videos: report.videos.slice(0, 20).map((video) => ({
              id: video.id,
              title: video.title,
              channel: video.channel.name,
              trendScore: video.trendScore,
              trendBand: video.trendBand,
              viewsPerHour: video.viewsPerHour,
              accelerationPercent: video.accelerationPercent,
            })),
            warnings: report.warnings,
          }),
      ),
  );

  server.registerTool(
    'search_project',
    {
      title: 'Search a research project',
      description:
        "Full-text search over a research project's imported evidence (transcript chunks, metadata, comments), best matches first.",
      inputSchema: {
        projectId: z.string().min(1).max(100).describe('The project id'),
        query: z.string().min(1).max(500).describe('What to look for'),
        limit: z.number().int().min(1).max(50).optional().describe('How many results (default 10)'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ projectId, query, limit }) =>
      run(() => api.GET('/projects/{projectId}/search', { params: { path: { projectId }, query: { q: query, limit } } })),
  );

  server.registerTool(
    'cited_answer',
    {
      title: 'Cited answer',
      description: 'Answer a question from YouTube evidence, with numbered citations to the videos and timestamps it used.',
      inputSchema: { question: z.string().min(1).max(2000).describe('The question') },
    },
    ({ question }) => run(() => api.POST('/answers', { body: { question } })),
  );

  server.registerTool(
    'write_report',
    {
      title: 'Research report',
      description: "Write a research report from a project's evidence, following a prompt; the report cites its evidence.",
      inputSchema: {
        projectId: z.string().min(1).max(100).describe('The project id'),
        prompt: z.string().min(1).max(4000).describe('What the report should cover'),
      },
    },
    ({ projectId, prompt }) => run(() => api.POST('/reports', { body: { projectId, prompt } })),
  );

  server.registerTool(
    'start_agent_run',
    {
      title: 'Start a research agent run',
      description:
        'Start a research agent on a question (it searches YouTube, reads transcripts and answers with sources). Returns sessionId and runId; poll get_agent_run until it ends. Pass sessionId to continue a conversation.',
      inputSchema: {
        message: z.string().min(1).max(4000).describe('The question for the agent'),
        projectId: z.string().min(1).max(100).optional().describe("Also search this project's evidence"),
        sessionId: z.string().min(1).max(100).optional().describe('Continue this session'),
      },
    },
    ({ message, projectId, sessionId }) => run(() => api.POST('/agent/runs', { body: { message, projectId, sessionId } })),
  );

  server.registerTool(
    'get_agent_run',
    {
      title: 'Agent run status',
      description: 'Status of an agent run (pending, running, completed, failed, cancelled) and, once completed, its answer with sources.',
      inputSchema: {
        sessionId: z.string().min(1).max(100).describe('From start_agent_run'),
        runId: z.string().min(1).max(100).describe('From start_agent_run'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ sessionId, runId }) => run(() => api.GET('/agent/{sessionId}/runs/{runId}', { params: { path: { sessionId, runId } } })),
  );
}
