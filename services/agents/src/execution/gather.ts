import { priceOf, type TranscriptSegment } from '@vrs/contracts';
import type { ProviderClient, ResearchClient } from '../clients';
import type { Classification } from '../planner/classify';
import type { Gathered, GatheredProjectEvidence, GatheredVideo } from '../planner/gathered';
import { emptyGathered } from '../planner/gathered';
import { windowsOf } from '../planner/windows';
import type { RunDoc } from '../repo/runs-repo';
import type { ToolPrice, ToolRunner } from './tool-runner';

/** Videos whose transcripts a topic question reads, per research breadth. */
export const videosPerBreadth = { focused: 2, standard: 3, broad: 5 } as const;
/** At most this many videos are compared. */
const maxCompared = 5;

/** A tool costs what the public operation it performs costs (ADR 0025). */
const priceFor = (operationId: string): ToolPrice => ({ fresh: priceOf(operationId, 'fresh'), cached: priceOf(operationId, 'cached') });
const prices = {
  search: priceFor('searchVideos'),
  video: priceFor('getVideo'),
  transcript: priceFor('getVideoTranscript'),
  channel: priceFor('getChannel'),
  project: priceFor('searchPrivateEvidence'),
};

export interface GatherDeps {
  provider: ProviderClient;
  research: ResearchClient;
}

/**
 * Runs the route's plan of tool calls (ADR 0026) and collects what they return. The plan depends only
 * on the message and on earlier tool outputs, so a resumed run walks the same calls and finds the
 * persisted ones already answered.
 */
export async function gather(deps: GatherDeps, runner: ToolRunner, run: RunDoc, classification: Classification): Promise<Gathered> {
  const gathered = emptyGathered();
  const { provider, research } = deps;
  const { route } = classification;

  const addVideo = (video: GatheredVideo) => {
    if (!gathered.videos.has(video.id)) gathered.videos.set(video.id, video);
  };

  async function readVideo(videoId: string): Promise<void> {
    const outcome = await runner.call<GatheredVideo>('get_video', videoId, { videoId }, prices.video, async () => {
      const { result, cached } = await provider.videos.get.query({ videoId });
      return {
        cached,
        output: {
          id: result.id,
          title: result.title,
          channelId: result.channel.id,
          channelName: result.channel.name,
          durationSeconds: result.durationSeconds,
          viewCount: result.viewCount,
        },
      };
    });
    if (outcome.kind === 'completed') addVideo(outcome.output);
    else if (outcome.kind === 'failed') gathered.warnings.push({ code: 'VIDEO_UNAVAILABLE', message: `${videoId}: ${outcome.message}` });
  }

  async function readTranscript(videoId: string): Promise<void> {
    const outcome = await runner.call<TranscriptSegment[]>(
      'get_transcript',
      videoId,
      { videoId, detail: 'segments' },
      prices.transcript,
      async () => {
        const { result, cached } = await provider.transcripts.get.query({ videoId, detail: 'segments' });
        return { cached, output: (result.segments ?? []).map(({ startMs, endMs, text }) => ({ startMs, endMs, text })) };
      },
    );
    if (outcome.kind === 'completed') gathered.windows.push(...windowsOf(videoId, outcome.output));
    else if (outcome.kind === 'failed') {
      gathered.warnings.push({ code: 'TRANSCRIPT_UNAVAILABLE', message: `${videoId}: no transcript could be read (${outcome.code}).` });
    }
  }

  async function searchProject(projectId: string, q: string): Promise<void> {
    const outcome = await runner.call<GatheredProjectEvidence[]>(
      'search_project_evidence',
      `${projectId}:${q}`,
      { projectId, q },
      prices.project,
      async () => {
        const found = await research.evidence.search.query({ accountId: run.accountId, projectId, q, limit: 20 });
        return {
          cached: false,
          output: found.results.map((item) => ({
            id: item.id,
            projectId,
            text: item.text,
            ...(item.startMs === undefined ? {} : { startMs: item.startMs }),
            ...(item.entityId === undefined ? {} : { entityId: item.entityId }),
          })),
        };
      },
    );
    if (outcome.kind === 'completed') gathered.projectEvidence.push(...outcome.output);
    else if (outcome.kind === 'failed')
      gathered.warnings.push({ code: 'PROJECT_SEARCH_FAILED', message: `${projectId}: ${outcome.message}` });
  }

  switch (route.route) {
    case 'topic_research': {
      const q = route.searchQuery;
      if (run.projectId) await searchProject(run.projectId, q);
      const searched = await runner.call<GatheredVideo[]>('search_videos', q, { q }, prices.search, async () => {
        const { result } = await provider.videos.search.query({ q });
        return {
          cached: false,
          output: result.videos.map((video) => ({
            id: video.id,
            title: video.title,
            channelId: video.channel.id,
            channelName: video.channel.name,
            durationSeconds: video.durationSeconds,
            viewCount: video.viewCount,
          })),
        };
      });
      if (searched.kind === 'failed')
        gathered.warnings.push({ code: 'SEARCH_FAILED', message: `The video search failed (${searched.code}).` });
      if (searched.kind !== 'completed') break;
      for (const video of searched.output) addVideo(video);
      // Transcripts are independent reads: made side by side, so the run's critical path is one of them.
      await Promise.all(searched.output.slice(0, videosPerBreadth[route.researchBreadth]).map((video) => readTranscript(video.id)));
      break;
    }
    case 'video_question':
    case 'video_comparison':
      await Promise.all(
        classification.videoIds.slice(0, maxCompared).map(async (videoId) => {
          await readVideo(videoId);
          if (gathered.videos.has(videoId)) await readTranscript(videoId);
        }),
      );
      if (classification.videoIds.length > maxCompared) {
        gathered.warnings.push({ code: 'TOO_MANY_VIDEOS', message: `Only the first ${maxCompared} videos named were read.` });
      }
      break;
    case 'channel_question': {
      const channel = classification.channel!;
      const outcome = await runner.call<NonNullable<Gathered['channel']>>('get_channel', channel, { channel }, prices.channel, async () => {
        const { result, cached } = await provider.channels.get.query({ channel });
        const { id, title, handle, description, url, subscriberCount, videoCount } = result;
        return { cached, output: { id, title, handle, description, url, subscriberCount, videoCount } };
      });
      if (outcome.kind === 'completed') gathered.channel = outcome.output;
      else if (outcome.kind === 'failed')
        gathered.warnings.push({ code: 'CHANNEL_UNAVAILABLE', message: `${channel}: ${outcome.message}` });
      break;
    }
    case 'clarification':
    case 'out_of_scope':
      break;
  }
  if (runner.stoppedBy) gathered.stoppedBy = runner.stoppedBy;
  return gathered;
}
