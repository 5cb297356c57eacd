import { z } from 'zod';
import { priceOf, type AgentToolName, type StoryboardCapture, type TranscriptSegment } from '@vrs/contracts';
import { required } from '@vrs/kit';
import type { AgentsDeps } from '../agents-deps';
import type { AgentsSettings } from '../config';
import type { Gathered, GatheredProjectEvidence, GatheredVideo } from '../planner/gathered';
import type { ToolOutcome, ToolPrice, ToolRunner } from './tool-runner';

/** A tool costs what the public operation it performs costs (ADR 0025). */
const priceFor = (operationId: string): ToolPrice => ({ fresh: priceOf(operationId, 'fresh'), cached: priceOf(operationId, 'cached') });

export type ToolDeps = Pick<AgentsDeps, 'provider' | 'research' | 'trends'> & { settings: Pick<AgentsSettings, 'storyboard'> };

/** A storyboard read costs a fresh `getVideo`'s price, its description included; one that delivers no sheet is free (ADR 0026). */
export const storyboardPrice: ToolPrice = { fresh: 2, cached: 2 };

/** What a tool call needs beyond its arguments: whose run it is (project evidence is the account's). */
export interface ToolContext {
  accountId: string;
  projectId?: string;
}

/** A video as the tools hand it on, from any of the provider's video shapes. */
const gatheredVideoOf = (
  video: Omit<GatheredVideo, 'channelId' | 'channelName'> & { channel: { id: string; name: string } },
): GatheredVideo => ({
  id: video.id,
  title: video.title,
  channelId: video.channel.id,
  channelName: video.channel.name,
  durationSeconds: video.durationSeconds,
  viewCount: video.viewCount,
});

const videoId = z.string().regex(/^[A-Za-z0-9_-]{11}$/, 'an 11-character YouTube video id');

/**
 * The agent's tools: arguments (a bad one is a failed step), the step key naming a call by what it
 * asks, its price, and the call through the owning service's typed client — never its store.
 */
export const agentTools = {
  search_videos: {
    description: 'Search YouTube videos by words; returns the videos found (videoId, title, channel, duration, views), best match first.',
    input: z.object({ q: z.string().trim().min(1).max(200) }),
    keyOf: (input: { q: string }) => input.q,
    price: priceFor('searchVideos'),
    perform: async (deps: ToolDeps, _context: ToolContext, input: { q: string }) => {
      const { result } = await deps.provider.videos.search.query({ q: input.q });
      return { cached: false, output: result.videos.map(gatheredVideoOf) };
    },
  },
  get_video: {
    description: "A video's facts: title, channel, duration, views.",
    input: z.object({ videoId }),
    keyOf: (input: { videoId: string }) => input.videoId,
    price: priceFor('getVideo'),
    perform: async (deps: ToolDeps, _context: ToolContext, input: { videoId: string }) => {
      const { result, cached } = await deps.provider.videos.get.query({ videoId: input.videoId });
      return { cached, output: gatheredVideoOf(result) };
    },
  },
  get_transcript: {
    description: "A video's transcript as timestamped windows of about 20 s, each with an evidenceId to cite (startMs, endMs, text).",
    input: z.object({ videoId }),
    keyOf: (input: { videoId: string }) => input.videoId,
    price: priceFor('getVideoTranscript'),
    perform: async (deps: ToolDeps, _context: ToolContext, input: { videoId: string }) => {
      const { result, cached } = await deps.provider.transcripts.get.query({ videoId: input.videoId, detail: 'segments' });
      const output: TranscriptSegment[] = (result.segments ?? []).map(({ startMs, endMs, text }) => ({ startMs, endMs, text }));
      return { cached, output };
    },
  },
  get_channel: {
    description: "A channel's profile (title, handle, description, subscribers, videos), by channel id (UC…) or @handle.",
    input: z.object({ channel: z.string().trim().min(2).max(200) }),
    keyOf: (input: { channel: string }) => input.channel,
    price: priceFor('getChannel'),
    perform: async (deps: ToolDeps, _context: ToolContext, input: { channel: string }) => {
      const { result, cached } = await deps.provider.channels.get.query({ channel: input.channel });
      const { id, title, handle, description, url, subscriberCount, videoCount } = result;
      const output: NonNullable<Gathered['channel']> = { id, title, handle, description, url, subscriberCount, videoCount };
      return { cached, output };
    },
  },
  get_comments: {
    description: "A video's top comments (author, text, likes): what viewers say about it.",
    input: z.object({ videoId }),
    keyOf: (input: { videoId: string }) => input.videoId,
    price: priceFor('getVideoComments'),
    perform: async (deps: ToolDeps, _context: ToolContext, input: { videoId: string }) => {
      const { result, cached } = await deps.provider.comments.getPage.query({ videoId: input.videoId });
      const output = {
        videoId: input.videoId,
        comments: result.comments.slice(0, 20).map((comment) => ({
          author: comment.author.name,
          text: comment.text.slice(0, 500),
          likeCount: comment.likeCount,
        })),
      };
      return { cached, output };
    },
  },
  get_playlist: {
    description: "A playlist's title and its first page of videos (videoId, title, channel).",
    input: z.object({ playlistId: z.string().trim().min(2).max(200) }),
    keyOf: (input: { playlistId: string }) => input.playlistId,
    price: priceFor('getPlaylist'),
    perform: async (deps: ToolDeps, _context: ToolContext, input: { playlistId: string }) => {
      const { result, cached } = await deps.provider.playlists.get.query({ playlistId: input.playlistId });
      const output = {
        playlistId: input.playlistId,
        title: result.title,
        videos: result.videos.slice(0, 50).map((video) => ({ videoId: video.id, title: video.title, channelName: video.channel.name })),
      };
      return { cached, output };
    },
  },
  get_trend_report: {
    description: "A trend report of a topic: which recent videos gain views fastest (trend score and band), hashtags, a plan's steps.",
    input: z.object({ q: z.string().trim().min(1).max(200) }),
    keyOf: (input: { q: string }) => input.q,
    price: priceFor('getTopicTrends'),
    perform: async (deps: ToolDeps, _context: ToolContext, input: { q: string }) => {
      // Deterministic mode: the run's own model reads the report, the trends service need not ask one too.
      const report = await deps.trends.reports.generate.mutate({ q: input.q, mode: 'deterministic' });
      const output = {
        query: report.query,
        confidence: report.confidence.score,
        summary: report.summary,
        videos: report.videos.slice(0, 10).map((video) => ({
          videoId: video.id,
          title: video.title,
          trendScore: video.trendScore,
          trendBand: video.trendBand,
          viewsPerHour: Math.round(video.viewsPerHour),
        })),
        hashtags: report.hashtags.slice(0, 10).map((hashtag) => hashtag.tag),
        planSteps: report.plan.steps,
      };
      return { cached: false, output };
    },
  },
  get_storyboard: {
    description:
      "A video's storyboard: a few sheets of frames from across the video, looked at for the question; returns what the frames show, each described frame with an evidenceId and its moment.",
    input: z.object({ videoId }),
    keyOf: (input: { videoId: string }) => input.videoId,
    price: storyboardPrice,
    perform: async (deps: ToolDeps, _context: ToolContext, input: { videoId: string }) => {
      const { maxSheets, timeoutMs } = deps.settings.storyboard;
      const output: StoryboardCapture = await deps.provider.storyboards.get.query({ videoId: input.videoId, maxSheets, timeoutMs });
      return { cached: false, charged: output.outcome === 'success', output };
    },
  },
  search_project_evidence: {
    description: "Search the evidence saved in the user's project (quotes, notes, transcript passages), each with an evidenceId to cite.",
    input: z.object({ q: z.string().trim().min(1).max(200) }),
    keyOf: (input: { q: string }, context?: ToolContext) => `${context?.projectId}:${input.q}`,
    price: priceFor('searchPrivateEvidence'),
    perform: async (deps: ToolDeps, context: ToolContext, input: { q: string }) => {
      const projectId = required(context.projectId, 'the project of search_project_evidence (offered only to a run with a project)');
      const found = await deps.research.evidence.search.query({ accountId: context.accountId, projectId, q: input.q, limit: 20 });
      return {
        cached: false,
        output: found.results.map(
          (item): GatheredProjectEvidence => ({
            id: item.id,
            projectId,
            text: item.text,
            ...(item.startMs === undefined ? {} : { startMs: item.startMs }),
            ...(item.entityId === undefined ? {} : { entityId: item.entityId }),
          }),
        ),
      };
    },
  },
} satisfies Record<AgentToolName, unknown>;

export type ToolInput<N extends AgentToolName> = z.infer<(typeof agentTools)[N]['input']>;
export type ToolOutput<N extends AgentToolName> = Awaited<ReturnType<(typeof agentTools)[N]['perform']>>['output'];

/** A tool's call through the run's runner: made at most once per key, priced, budget-checked, persisted. */
export function callAgentTool<N extends AgentToolName>(
  runner: ToolRunner,
  deps: ToolDeps,
  context: ToolContext,
  name: N,
  input: ToolInput<N>,
): Promise<ToolOutcome<ToolOutput<N>>> {
  // One tool's fields seen without the union of every tool's signatures.
  const tool = agentTools[name] as unknown as {
    keyOf: (input: unknown, context: ToolContext) => string;
    price: ToolPrice;
    perform: (
      deps: ToolDeps,
      context: ToolContext,
      input: unknown,
    ) => Promise<{ output: ToolOutput<N>; cached: boolean; charged?: boolean }>;
  };
  return runner.call(name, tool.keyOf(input, context), input as Record<string, unknown>, tool.price, () =>
    tool.perform(deps, context, input),
  );
}
