import type { Comparison, Evidence } from '@vrs/contracts';
import type { Llm } from '@vrs/ai';
import { AppError, type TraceContext } from '@vrs/kit';
import { composeCitedAnswer, maxEvidence } from '../answers/compose-cited-answer';
import { publicEvidenceId } from '../answers/gather-public-evidence';
import { videoSourceKey } from '../imports/import-video';
import { chunkTranscript, type TranscriptChunk } from '../imports/transcript-chunks';
import type { ProviderClient } from '../provider-client';

type ComparedVideo = NonNullable<Comparison['videos']>[number];

/** `count` chunks spread over the whole video, so the model hears its beginning, middle and end. */
function spread(chunks: TranscriptChunk[], count: number): TranscriptChunk[] {
  if (chunks.length <= count) return chunks;
  return Array.from({ length: count }, (_, i) => i).flatMap((i) => chunks[Math.floor((i * chunks.length) / count)] ?? []);
}

/**
 * A cited summary of how what the videos say differs, from their transcripts: an equal share of
 * the evidence budget per video. Nothing to summarize (no model, no transcripts) is no summary; a
 * model outage is a warning, not a failed comparison, since the metrics stand on their own.
 */
export async function summarizeVideos(
  provider: ProviderClient,
  llm: Llm | null,
  videos: ComparedVideo[],
  signal?: AbortSignal,
  /** The request's trace context: the model's attempts go under it (ADR 0117). */
  trace?: TraceContext,
): Promise<{ summary?: Comparison['summary']; warnings: string[] }> {
  if (!llm) return { warnings: [] };
  const warnings: string[] = [];
  const perVideo = Math.max(1, Math.floor(maxEvidence / videos.length));
  const evidence: Evidence[] = [];
  await Promise.all(
    videos.map(async (video) => {
      try {
        const { result } = await provider.transcripts.get.query({ videoId: video.id, detail: 'segments' });
        for (const chunk of spread(chunkTranscript(result.segments ?? []), perVideo)) {
          const sourceKey = videoSourceKey(video.id, `transcript:${chunk.startMs}`);
          // Not ranked against a query: every video's excerpts weigh the same.
          evidence.push({
            id: publicEvidenceId(sourceKey),
            score: 0,
            text: `${video.title}: ${chunk.text}`,
            provider: 'youtube',
            entityId: video.id,
            startMs: chunk.startMs,
            sourceKey,
          });
        }
      } catch {
        warnings.push(`${video.id}: no transcript, so the summary cannot say what it says.`);
      }
    }),
  );
  if (evidence.length === 0) return { warnings };
  const task = `Compare what these videos say, and how they differ: ${videos.map((video) => `"${video.title}"`).join(', ')}.`;
  try {
    const { answer, citations, model, warnings: answerWarnings } = await composeCitedAnswer(llm, task, evidence, signal, trace);
    return { summary: { answer, citations, model }, warnings: [...warnings, ...answerWarnings] };
  } catch (error) {
    if (!(error instanceof AppError) || error.code !== 'AI_UNAVAILABLE') throw error;
    return { warnings: [...warnings, 'No summary: the AI model service is unavailable.'] };
  }
}
