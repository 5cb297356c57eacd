import type { AgentToolName } from '@vrs/contracts';
import { required } from '@vrs/kit';
import type { Classification } from '../planner/classify';
import { addVideo, emptyGathered, type Gathered } from '../planner/gathered';
import { windowsOf } from '../planner/windows';
import type { RunDoc } from '../repo/runs-repo';
import type { ToolRunner } from './tool-runner';
import { callAgentTool, type ToolContext, type ToolDeps, type ToolInput } from './tools';

/** Videos whose transcripts a topic question reads, per research breadth. */
export const videosPerBreadth = { focused: 2, standard: 3, broad: 5 } as const;
/** At most this many videos are compared. */
const maxCompared = 5;

/**
 * Runs the route's plan of tool calls (ADR 0026) and collects what they return. The plan depends only
 * on the message and on earlier tool outputs, so a resumed run walks the same calls and finds the
 * persisted ones already answered.
 */
export async function gather(deps: ToolDeps, runner: ToolRunner, run: RunDoc, classification: Classification): Promise<Gathered> {
  const gathered = emptyGathered();
  const { route } = classification;
  const context: ToolContext = { accountId: run.accountId, ...(run.projectId ? { projectId: run.projectId } : {}) };
  const callTool = <N extends AgentToolName>(name: N, input: ToolInput<N>) => callAgentTool(runner, deps, context, name, input);

  async function readVideo(videoId: string): Promise<void> {
    const outcome = await callTool('get_video', { videoId });
    if (outcome.kind === 'completed') addVideo(gathered, outcome.output);
    else if (outcome.kind === 'failed') gathered.warnings.push({ code: 'VIDEO_UNAVAILABLE', message: `${videoId}: ${outcome.message}` });
  }

  async function readTranscript(videoId: string): Promise<void> {
    const outcome = await callTool('get_transcript', { videoId });
    if (outcome.kind === 'completed') gathered.windows.push(...windowsOf(videoId, outcome.output));
    else if (outcome.kind === 'failed') {
      gathered.warnings.push({ code: 'TRANSCRIPT_UNAVAILABLE', message: `${videoId}: no transcript could be read (${outcome.code}).` });
    }
  }

  async function searchProject(projectId: string, q: string): Promise<void> {
    const outcome = await callTool('search_project_evidence', { q });
    if (outcome.kind === 'completed') gathered.projectEvidence.push(...outcome.output);
    else if (outcome.kind === 'failed')
      gathered.warnings.push({ code: 'PROJECT_SEARCH_FAILED', message: `${projectId}: ${outcome.message}` });
  }

  switch (route.route) {
    case 'topic_research': {
      const q = route.searchQuery;
      if (run.projectId) await searchProject(run.projectId, q);
      const searched = await callTool('search_videos', { q });
      if (searched.kind === 'failed')
        gathered.warnings.push({ code: 'SEARCH_FAILED', message: `The video search failed (${searched.code}).` });
      if (searched.kind !== 'completed') break;
      for (const video of searched.output) addVideo(gathered, video);
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
      const channel = required(classification.channel, 'the channel of a channel question (classify routes there only when one is named)');
      const outcome = await callTool('get_channel', { channel });
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
