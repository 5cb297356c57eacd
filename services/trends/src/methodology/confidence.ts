import type { TrendReport } from '@vrs/contracts';

export interface ConfidenceInput {
  sampleSize: number;
  enrichedVideos: number;
  observedVideos: number;
  /** Candidates chosen for the sample whose enrichment failed. */
  failedEnrichments: number;
  channels: number;
  channelsWithoutBaseline: number;
}

/** Below this many enriched videos, percentiles rest on too few points. */
export const smallSampleThreshold = 12;

/**
 * Report confidence: 100 minus a penalty per weakness, each with its reason: a small sample, missing
 * history, failed enrichment, channels without a baseline. Level: high ≥ 75, medium ≥ 50, else low.
 */
export function reportConfidence(input: ConfidenceInput): TrendReport['confidence'] {
  const reasons: string[] = [];
  let score = 100;
  const penalize = (points: number, reason: string) => {
    score -= points;
    reasons.push(reason);
  };
  if (input.enrichedVideos < smallSampleThreshold) {
    penalize(
      2 * (smallSampleThreshold - input.enrichedVideos),
      `Small sample: ${input.enrichedVideos} videos enriched (${smallSampleThreshold} or more give stable percentiles).`,
    );
  }
  const withoutHistory = input.enrichedVideos - input.observedVideos;
  if (withoutHistory > 0 && input.enrichedVideos > 0) {
    penalize(
      Math.round((30 * withoutHistory) / input.enrichedVideos),
      `No earlier snapshot for ${withoutHistory} of ${input.enrichedVideos} videos: lifetime velocity used.`,
    );
  }
  if (input.failedEnrichments > 0) {
    penalize(
      Math.min(30, 10 * input.failedEnrichments),
      `Enrichment failed for ${input.failedEnrichments} of ${input.sampleSize} sampled videos.`,
    );
  }
  if (input.channelsWithoutBaseline > 0) {
    penalize(
      Math.min(20, 5 * input.channelsWithoutBaseline),
      `No channel baseline for ${input.channelsWithoutBaseline} of ${input.channels} channels.`,
    );
  }
  if (reasons.length === 0) reasons.push('Full sample, observed history for every video, every channel baseline read.');
  const clamped = Math.max(0, Math.min(100, score));
  return { score: clamped, reasons, level: clamped >= 75 ? 'high' : clamped >= 50 ? 'medium' : 'low' };
}
