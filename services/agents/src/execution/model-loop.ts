import type { Llm, StepMessage, StepTool, StepToolCall } from '@vrs/ai';
import type { AgentToolName, AgentWarning, StoryboardCapture } from '@vrs/contracts';
import type { TraceContext } from '@vrs/kit';
import type { AgentsDeps } from '../agents-deps';
import { z } from 'zod';
import { analyzeReadTranscript, type ReadTranscriptAnalysis } from '../analyst/analyze-read-transcript';
import type { TranscriptFinding } from '../analyst/analyze-transcript';
import { ToolInputInvalid } from '../clients';
import type { RunLimits } from '../config';
import type { Classification } from '../planner/classify';
import { quotesPerDetail } from '../planner/compose-answer';
import type { Evidence } from '../planner/compose-model-answer';
import { addVideo, emptyGathered, type Gathered } from '../planner/gathered';
import { windowsOf } from '../planner/windows';
import type { RunDoc } from '../repo/runs-repo';
import { videosPerBreadth } from './gather';
import {
  type DescribedStoryboard,
  describeStoryboard,
  recordStoryboardAttempts,
  type StoryboardAttempt,
  storyboardUnavailable,
} from './storyboard';
import type { ToolOutcome, ToolRunner } from './tool-runner';
import { agentTools, callAgentTool, type ToolContext, type ToolDeps, type ToolOutput } from './tools';

type ModelLoopDeps = ToolDeps & Pick<AgentsDeps, 'runs' | 'logger' | 'now'> & { llm: Llm; limits: RunLimits; trace?: TraceContext };

export interface ModelLoopResult {
  gathered: Gathered;
  /** What the model was shown under each evidence id. */
  evidence: Map<string, Evidence>;
  /** The model's final text; absent when a budget or the model's failure ended the loop (the finalizer answers). */
  answer?: string;
  /** The transcript analyst's grounded findings over every transcript read (each also an evidence id). */
  findings: TranscriptFinding[];
  /** Findings dropped as ungrounded, analyses that failed: the answer is then at most `partial`. */
  analystWarnings: AgentWarning[];
}

/** The warning a failed call of each tool adds (a tool failing is a warning, not a run failure: ADR 0025). */
const failureWarnings: Record<AgentToolName, string> = {
  search_videos: 'SEARCH_FAILED',
  get_video: 'VIDEO_UNAVAILABLE',
  get_transcript: 'TRANSCRIPT_UNAVAILABLE',
  get_channel: 'CHANNEL_UNAVAILABLE',
  search_project_evidence: 'PROJECT_SEARCH_FAILED',
  get_comments: 'COMMENTS_UNAVAILABLE',
  get_playlist: 'PLAYLIST_UNAVAILABLE',
  get_trend_report: 'TREND_REPORT_FAILED',
  get_storyboard: 'STORYBOARD_UNAVAILABLE',
};

/** The tools this run offers the model: project evidence only when the run names a project, storyboards only with `useStoryboard`. */
function offeredTools(run: RunDoc, classification: Classification): AgentToolName[] {
  return (Object.keys(agentTools) as AgentToolName[]).filter(
    (name) => (name !== 'search_project_evidence' || run.projectId) && (name !== 'get_storyboard' || classification.route.useStoryboard),
  );
}

function toolSpecs(names: readonly AgentToolName[]): Record<string, StepTool> {
  return Object.fromEntries(
    names.map((name) => [
      name,
      { description: agentTools[name].description, parameters: z.toJSONSchema(agentTools[name].input) as Record<string, unknown> },
    ]),
  );
}

function systemPromptOf(run: RunDoc, classification: Classification): string {
  const { route } = classification;
  return [
    "You are a research agent for YouTube. Answer the user's question only from what your tools return.",
    `The question was routed as ${route.route}${route.searchQuery ? `; a good search query is "${route.searchQuery}"` : ''}.`,
    `Read up to ${videosPerBreadth[route.researchBreadth]} transcripts.`,
    run.projectId ? "The user's project evidence can be searched with search_project_evidence." : '',
    route.useStoryboard ? 'The user asked you to look at storyboards: get_storyboard shows what the frames of a video show.' : '',
    `When you have enough evidence, answer in plain text without calling tools, quoting up to ${quotesPerDetail[route.answerDetail]} passages.`,
    'A transcript comes back as findings: claims with the verbatim quote and time range they rest on.',
    'After each claim write, in brackets, the evidenceId of the finding or evidence item it comes from, e.g. [ev_3]. Cite only evidenceIds a tool gave you.',
  ]
    .filter(Boolean)
    .join('\n');
}

type ToolResult = Extract<StepMessage, { role: 'tool' }>['results'][number];

/**
 * The model loop (ADR 0026): model steps and the tool calls each asks for, side by side through the
 * runner, until the model answers in text or a budget ends it. A resumed run replays the persisted
 * steps in order, so the conversation and its evidence ids come out the same and nothing is asked
 * twice. A failed tool call goes back to the model as an error.
 */
export async function runModelLoop(
  deps: ModelLoopDeps,
  runner: ToolRunner,
  run: RunDoc,
  classification: Classification,
): Promise<ModelLoopResult> {
  const gathered = emptyGathered();
  const evidence = new Map<string, Evidence>();
  const context: ToolContext = { accountId: run.accountId, ...(run.projectId ? { projectId: run.projectId } : {}) };
  const offered = offeredTools(run, classification);
  const tools = toolSpecs(offered);
  const system = systemPromptOf(run, classification);
  const messages: StepMessage[] = [
    ...run.context.map((content): StepMessage => ({ role: 'user', content })),
    { role: 'user', content: run.message },
  ];
  const register = (item: Evidence) => {
    const id = `ev_${evidence.size + 1}`;
    evidence.set(id, item);
    return id;
  };
  const warn = (warning: AgentWarning) => gathered.warnings.push(warning);
  /** What each distinct call was shown, so asking again neither gathers twice nor renumbers evidence. */
  const shown = new Map<string, ToolResult>();
  const findings: TranscriptFinding[] = [];
  const analystWarnings: AgentWarning[] = [];
  const storyboards: StoryboardAttempt[] = [];
  const ended = () => {
    if (classification.route.useStoryboard && storyboards.length === 0)
      warn({ code: 'STORYBOARD_UNAVAILABLE', message: 'The model read no storyboard; the answer uses transcripts only.' });
    return { gathered, evidence, findings, analystWarnings };
  };

  /** Runs one requested call: an unknown tool or bad arguments is an error given back, never a service call. */
  async function perform(call: StepToolCall): Promise<ToolOutcome<unknown>> {
    const name = call.name as AgentToolName;
    if (!offered.includes(name)) return { kind: 'failed', code: 'TOOL_UNKNOWN', message: `There is no tool named ${call.name}.` };
    const parsed = agentTools[name].input.safeParse(call.input);
    if (!parsed.success) {
      const message = `Invalid arguments for ${name}: ${z.prettifyError(parsed.error).replace(/\s+/g, ' ')}`;
      return runner.call(
        name,
        `invalid:${JSON.stringify(call.input ?? null).slice(0, 200)}`,
        { arguments: call.input ?? null },
        agentTools[name].price,
        () => {
          throw new ToolInputInvalid(message);
        },
      );
    }
    return callAgentTool(runner, deps, context, name, parsed.data as never);
  }

  /**
   * What the model is shown for a call's outcome (in call order, so ids are stable); also gathers what
   * the answer may cite. A transcript is shown as the analyst's grounded findings, not raw text.
   */
  function absorb(
    call: StepToolCall,
    outcome: ToolOutcome<unknown>,
    read: { analysis?: ReadTranscriptAnalysis; described?: DescribedStoryboard },
  ): ToolResult {
    const base = { toolCallId: call.id, toolName: call.name };
    if (call.name === 'get_storyboard' && offered.includes('get_storyboard')) {
      // Every attempt is an extraction diagnostic, whatever came of it.
      const videoId = String((call.input as { videoId?: unknown }).videoId);
      storyboards.push({
        videoId,
        slot: storyboards.length,
        toolCallId: `get_storyboard:${videoId}`,
        outcome: outcome as ToolOutcome<StoryboardCapture>,
        modelEvents: read.described ? [read.described.event] : [],
      });
    }
    if (outcome.kind === 'stopped')
      return { ...base, output: { error: { code: outcome.reason, message: 'Not made: a run budget is spent.' } }, isError: true };
    if (outcome.kind === 'failed') {
      // An unknown tool has no warning of its own: the model is told, the answer not.
      const code = outcome.code === 'TOOL_INPUT_INVALID' ? outcome.code : failureWarnings[call.name as AgentToolName];
      if (code) warn({ code, message: `${call.name} ${JSON.stringify(call.input ?? null).slice(0, 120)}: ${outcome.message}` });
      return { ...base, output: { error: { code: outcome.code, message: outcome.message } }, isError: true };
    }
    const name = call.name as AgentToolName;
    switch (name) {
      case 'search_videos': {
        const videos = outcome.output as ToolOutput<'search_videos'>;
        for (const video of videos) addVideo(gathered, video);
        return { ...base, output: { videos: videos.map(({ id, ...video }) => ({ videoId: id, ...video })) }, isError: false };
      }
      case 'get_video': {
        const { id, ...video } = outcome.output as ToolOutput<'get_video'>;
        addVideo(gathered, { id, ...video });
        return { ...base, output: { videoId: id, ...video }, isError: false };
      }
      case 'get_transcript': {
        const videoId = (call.input as { videoId: string }).videoId;
        // A transcript read is a fetch of the video: its windows may be cited.
        addVideo(gathered, { id: videoId, title: videoId, channelId: '', channelName: '', durationSeconds: null, viewCount: null });
        const windows = windowsOf(videoId, outcome.output as ToolOutput<'get_transcript'>);
        gathered.windows.push(...windows);
        const { analysis } = read;
        findings.push(...(analysis?.findings ?? []));
        analystWarnings.push(...(analysis?.warnings ?? []));
        const windowOf = new Map(windows.map((window) => [window.index, window]));
        const shown = (analysis?.findings ?? []).flatMap((finding) => {
          const window = windowOf.get(finding.windowIndex);
          if (!window) return [];
          return [
            {
              evidenceId: register({ kind: 'finding', finding, window }),
              claim: finding.claim,
              text: finding.quote,
              startMs: finding.startMs,
              endMs: finding.endMs,
            },
          ];
        });
        return { ...base, output: { videoId, findings: shown }, isError: false };
      }
      case 'get_channel': {
        const channel = outcome.output as ToolOutput<'get_channel'>;
        gathered.channel = channel;
        return { ...base, output: { evidenceId: register({ kind: 'channel' }), ...channel }, isError: false };
      }
      case 'search_project_evidence': {
        const items = outcome.output as ToolOutput<'search_project_evidence'>;
        gathered.projectEvidence.push(...items);
        const shown = items.map((item) => ({ evidenceId: register({ kind: 'project', item }), text: item.text, startMs: item.startMs }));
        return { ...base, output: { results: shown }, isError: false };
      }
      case 'get_storyboard': {
        const capture = outcome.output as ToolOutput<'get_storyboard'>;
        const { described } = read;
        if (!described) {
          warn(storyboardUnavailable(capture.videoId, outcome as ToolOutcome<StoryboardCapture>));
          return { ...base, output: { videoId: capture.videoId, frames: [], outcome: capture.outcome }, isError: false };
        }
        if (described.warning) warn(described.warning);
        gathered.windows.push(...described.frames);
        const frames = described.frames.map((window) => ({
          evidenceId: register({ kind: 'frame', window }),
          startMs: window.startMs,
          endMs: window.endMs,
          text: window.text,
        }));
        return { ...base, output: { videoId: capture.videoId, frames }, isError: false };
      }
      case 'get_playlist':
      case 'get_comments':
      case 'get_trend_report':
        return { ...base, output: outcome.output as object, isError: false };
    }
  }

  for (let index = 1; index <= deps.limits.maxModelSteps; index++) {
    const step = await runner.modelStep(index, async () => {
      const answered = await deps.llm.step({ system, messages, tools, trace: deps.trace });
      return { model: answered.model, output: { text: answered.text, toolCalls: answered.toolCalls } };
    });
    if (step.kind === 'stopped') {
      gathered.stoppedBy = step.reason;
      return ended();
    }
    if (step.kind === 'failed') {
      gathered.stoppedBy = 'MODEL_UNAVAILABLE';
      return ended();
    }
    const { text, toolCalls } = step.output;
    if (toolCalls.length === 0) return { ...ended(), answer: text };
    messages.push({ role: 'assistant', text, toolCalls });
    // The same call asked twice in one step is made once.
    const made = new Map<string, Promise<ToolOutcome<unknown>>>();
    const performed = await Promise.all(
      toolCalls.map(async (call) => {
        const same = `${call.name}:${JSON.stringify(call.input ?? null)}`;
        let outcome = made.get(same);
        if (outcome === undefined) {
          outcome = perform(call);
          made.set(same, outcome);
        }
        return { call, same, outcome: await outcome };
      }),
    );
    // Each transcript newly read is analysed and each storyboard described, side by side, before the model is shown anything.
    const reads = new Map<string, Promise<Parameters<typeof absorb>[2]>>();
    for (const { call, same, outcome } of performed) {
      if (outcome.kind !== 'completed' || shown.has(same) || reads.has(same)) continue;
      if (call.name === 'get_transcript') {
        const videoId = (call.input as { videoId: string }).videoId;
        const video = gathered.videos.get(videoId);
        const analysis = analyzeReadTranscript({
          llm: deps.llm,
          runner,
          question: run.message,
          terms: classification.terms,
          video: { videoId, title: video?.title ?? videoId, channel: video?.channelName ?? '' },
          windows: windowsOf(videoId, outcome.output as ToolOutput<'get_transcript'>),
          now: deps.now,
          trace: deps.trace,
        });
        reads.set(
          same,
          analysis.then((analysis) => ({ analysis })),
        );
      } else if (call.name === 'get_storyboard' && (outcome.output as StoryboardCapture).outcome === 'success') {
        const capture = outcome.output as StoryboardCapture;
        const title = gathered.videos.get(capture.videoId)?.title ?? capture.videoId;
        reads.set(
          same,
          describeStoryboard(deps.llm, deps.logger, run, capture, title, deps.trace).then((described) => ({ described })),
        );
      }
    }
    const read = new Map(await Promise.all([...reads].map(async ([same, done]) => [same, await done] as const)));
    const storyboardsBefore = storyboards.length;
    messages.push({
      role: 'tool',
      results: performed.map(({ call, same, outcome }) => {
        // A call already answered (earlier in this step or in an earlier one) is shown the same result, ids included.
        const earlier = shown.get(same);
        if (earlier) return { ...earlier, toolCallId: call.id };
        const result = absorb(call, outcome, read.get(same) ?? {});
        shown.set(same, result);
        return result;
      }),
    });
    if (storyboards.length > storyboardsBefore)
      await recordStoryboardAttempts(deps.runs, run, storyboards, new Date(deps.now()).toISOString());
    if (runner.stoppedBy) {
      gathered.stoppedBy = runner.stoppedBy;
      return ended();
    }
  }
  gathered.stoppedBy = 'MODEL_STEP_LIMIT';
  return ended();
}
