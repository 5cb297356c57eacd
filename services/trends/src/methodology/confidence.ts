import type { TrendReport } from '@vrs/contracts';

export interface ConfidenceInput {
  sampleSize: number;
  /** Read anew through the provider. */
  enrichedVideos: number;
  /** Scored from their search card after their enrichment failed (counted in `failedEnrichments` too). */
  searchCardVideos?: number;
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
  const fromCards = input.searchCardVideos ?? 0;
  // Percentiles rest on every scored video, search cards included.
  const scored = input.enrichedVideos + fromCards;
  if (scored < smallSampleThreshold) {
    penalize(
      2 * (smallSampleThreshold - scored),
      `Small sample: ${scored} videos scored (${smallSampleThreshold} or more give stable percentiles).`,
    );
  }
  const withoutHistory = scored - input.observedVideos;
  if (withoutHistory > 0 && scored > 0) {
    penalize(
      Math.round((30 * withoutHistory) / scored),
      `No earlier snapshot for ${withoutHistory} of ${scored} videos: lifetime velocity used.`,
    );
  }
  if (input.failedEnrichments > 0) {
    const leftOut = input.failedEnrichments - fromCards;
    const cardNote =
      fromCards === 0
        ? ''
        : leftOut === 0
          ? ' (all scored from their search card)'
          : ` (${fromCards} scored from their search card, ${leftOut} left out)`;
    penalize(
      Math.min(30, 10 * input.failedEnrichments),
      `Enrichment failed for ${input.failedEnrichments} of ${input.sampleSize} sampled videos${cardNote}.`,
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
