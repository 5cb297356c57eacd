import type { AgentWarning } from '@vrs/contracts';
import type { ToolRunner } from '../execution/tool-runner';
import { rankWindows, type TranscriptWindow } from '../planner/windows';
import { type AnalyzeTranscriptInput, analyzeTranscript, type TranscriptAnalysis, type TranscriptFinding } from './analyze-transcript';

/** Windows of one transcript the analyst reads: its best for the question (a prompt of a few kilobytes). */
export const analystWindowsPerTranscript = 6;

export interface ReadTranscriptAnalysis {
  findings: TranscriptFinding[];
  /** Ungrounded findings dropped, an analysis that failed: the answer is then at most `partial`. */
  warnings: AgentWarning[];
}

export type AnalyzeReadTranscriptInput = Pick<AnalyzeTranscriptInput, 'llm' | 'question' | 'video' | 'trace'> & {
  runner: ToolRunner;
  /** The topic words the windows are ranked by. */
  terms: readonly string[];
  /** Every window of the transcript just read. */
  windows: readonly TranscriptWindow[];
  now: () => number;
};

function warningsOf(videoId: string, analysis: TranscriptAnalysis): AgentWarning[] {
  const last = analysis.diagnostics.at(-1);
  if (last?.outcome !== 'failed') return [];
  if (last.code !== 'GROUNDING_REJECTED') {
    const why = last.code === 'TIMEOUT' ? 'ran out of time' : 'got no answer from the model';
    return [{ code: 'TRANSCRIPT_ANALYSIS_FAILED', message: `${videoId}: the transcript analyst ${why} (${last.code}).` }];
  }
  const dropped = new Set(last.issues.map((issue) => issue.findingIndex)).size;
  const was = dropped === 1 ? 'was' : 'were';
  const message = `${videoId}: ${dropped} finding${dropped === 1 ? '' : 's'} ${was} not grounded in the transcript windows, even after one repair, and ${was} dropped.`;
  return [{ code: 'FINDINGS_DROPPED', message }];
}

/**
 * The analyst over the best windows of a transcript the model loop just read, as a persisted step
 * (`analyze:<videoId>`): a resumed run reuses it, and the run view reads its diagnostics there.
 */
export async function analyzeReadTranscript(input: AnalyzeReadTranscriptInput): Promise<ReadTranscriptAnalysis> {
  const { llm, runner, question, terms, video, now, trace } = input;
  // The best for the question, in transcript order, as the model reads them.
  const windows = rankWindows(input.windows, terms)
    .slice(0, analystWindowsPerTranscript)
    .sort((a, b) => a.index - b.index);
  if (windows.length === 0) return { findings: [], warnings: [] };
  const outcome = await runner.analyze(
    video.videoId,
    { videoId: video.videoId, windowIndexes: windows.map((window) => window.index) },
    () =>
      analyzeTranscript({ llm, question, video, windows, signal: AbortSignal.timeout(Math.max(1, runner.deadline - now())), now, trace }),
  );
  if (outcome.kind === 'completed') return { findings: outcome.output.findings, warnings: warningsOf(video.videoId, outcome.output) };
  // Stopped by a budget: the run's own warning says so.
  if (outcome.kind === 'stopped') return { findings: [], warnings: [] };
  return {
    findings: [],
    warnings: [{ code: 'TRANSCRIPT_ANALYSIS_FAILED', message: `${video.videoId}: the transcript analysis failed (${outcome.code}).` }],
  };
}
