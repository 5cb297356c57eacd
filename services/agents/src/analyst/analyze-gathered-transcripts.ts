import type { Llm } from '@vrs/ai';
import type { AgentWarning } from '@vrs/contracts';
import type { ToolRunner } from '../execution/tool-runner';
import type { Gathered } from '../planner/gathered';
import { rankWindows, type TranscriptWindow } from '../planner/windows';
import { analyzeTranscript, type TranscriptAnalysis, type TranscriptFinding } from './analyze-transcript';
import type { TranscriptDiagnostic } from './transcript-diagnostic';

/** Windows of one transcript the analyst reads: its best for the question (a prompt of a few kilobytes). */
export const analystWindowsPerTranscript = 6;

export interface GatheredAnalysis {
  /** Transcripts the analyst was asked about (0: nothing to analyse, the answer is built without it). */
  analyzedCount: number;
  findings: TranscriptFinding[];
  diagnostics: TranscriptDiagnostic[];
  /** Ungrounded findings dropped, analyses that failed: the answer is then at most `partial`. */
  warnings: AgentWarning[];
}

export interface AnalyzeGatheredInput {
  llm: Llm;
  runner: ToolRunner;
  /** The run's message: what the findings must answer. */
  question: string;
  /** The topic words the windows are ranked by. */
  terms: readonly string[];
  gathered: Gathered;
  now: () => number;
}

function bestWindowsByVideo(windows: readonly TranscriptWindow[], terms: readonly string[]): Map<string, TranscriptWindow[]> {
  const byVideo = new Map<string, TranscriptWindow[]>();
  for (const window of rankWindows(windows, terms)) {
    const chosen = byVideo.get(window.videoId) ?? [];
    if (chosen.length < analystWindowsPerTranscript) chosen.push(window);
    byVideo.set(window.videoId, chosen);
  }
  // In transcript order, as the model reads them.
  for (const chosen of byVideo.values()) chosen.sort((a, b) => a.index - b.index);
  return byVideo;
}

function warningsOf(videoId: string, analysis: TranscriptAnalysis): AgentWarning[] {
  const last = analysis.diagnostics.at(-1);
  if (last?.outcome !== 'failed') return [];
  if (last.code === 'GROUNDING_REJECTED') {
    const dropped = new Set(last.issues.map((issue) => issue.findingIndex)).size;
    return [
      {
        code: 'FINDINGS_DROPPED',
        message: `${videoId}: ${dropped} finding${dropped === 1 ? ' was' : 's were'} not grounded in the transcript windows, even after one repair, and ${dropped === 1 ? 'was' : 'were'} dropped.`,
      },
    ];
  }
  return [
    {
      code: 'TRANSCRIPT_ANALYSIS_FAILED',
      message: `${videoId}: the transcript analyst ${last.code === 'TIMEOUT' ? 'ran out of time' : 'got no answer from the model'} (${last.code}).`,
    },
  ];
}

/**
 * Runs the transcript analyst over the best windows of every transcript gathered, side by side, each
 * analysis a persisted step (`analyze:<videoId>`), so a resumed run reuses it instead of asking the
 * model again. The one call site of the analyst in the executor (ADR 0026).
 */
export async function analyzeGatheredTranscripts(input: AnalyzeGatheredInput): Promise<GatheredAnalysis> {
  const { llm, runner, question, terms, gathered, now } = input;
  const byVideo = bestWindowsByVideo(gathered.windows, terms);
  const outcomes = await Promise.all(
    [...byVideo].map(async ([videoId, windows]) => {
      const video = gathered.videos.get(videoId);
      const outcome = await runner.analyze(videoId, { videoId, windowIndexes: windows.map((window) => window.index) }, () =>
        analyzeTranscript({
          llm,
          question,
          video: { videoId, title: video?.title ?? videoId, channel: video?.channelName ?? '' },
          windows,
          signal: AbortSignal.timeout(Math.max(1, runner.deadline - now())),
          now,
        }),
      );
      return { videoId, outcome };
    }),
  );
  const result: GatheredAnalysis = { analyzedCount: byVideo.size, findings: [], diagnostics: [], warnings: [] };
  for (const { videoId, outcome } of outcomes) {
    if (outcome.kind === 'completed') {
      result.findings.push(...outcome.output.findings);
      result.diagnostics.push(...outcome.output.diagnostics);
      result.warnings.push(...warningsOf(videoId, outcome.output));
    } else if (outcome.kind === 'failed') {
      result.warnings.push({
        code: 'TRANSCRIPT_ANALYSIS_FAILED',
        message: `${videoId}: the transcript analysis failed (${outcome.code}).`,
      });
    }
  }
  return result;
}
