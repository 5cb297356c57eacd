import type { AgentSource, AgentWarning } from '@vrs/contracts';
import type { StoredCitation } from '../repo/runs-repo';

/**
 * Keeps the citations that resolve: the source is one of the result's, the video was fetched in this
 * run, and a time range lies inside the transcript window it was quoted from. The rest are dropped
 * and one warning says how many (ADR 0026).
 */
export function verifyCitations(
  citations: readonly StoredCitation[],
  /** `fetchedVideoIds`: every video a tool returned in this run. */
  check: { sources: readonly AgentSource[]; fetchedVideoIds: ReadonlySet<string> },
): { kept: StoredCitation[]; warning?: AgentWarning } {
  const sourceIds = new Set(check.sources.map((source) => source.id));
  const kept = citations.filter((citation) => {
    if (!sourceIds.has(citation.sourceId)) return false;
    if (citation.videoId !== undefined && !check.fetchedVideoIds.has(citation.videoId)) return false;
    if (citation.startMs === undefined && citation.endMs === undefined) return true;
    const { window, startMs, endMs } = citation;
    if (!window || startMs === undefined || endMs === undefined) return false;
    return startMs <= endMs && startMs >= window.startMs && endMs <= window.endMs;
  });
  const dropped = citations.length - kept.length;
  if (dropped === 0) return { kept };
  return {
    kept,
    warning: {
      code: 'CITATIONS_DROPPED',
      message: `${dropped} citation${dropped === 1 ? '' : 's'} did not resolve to a source, a video fetched in this run, or a transcript window, and ${dropped === 1 ? 'was' : 'were'} dropped.`,
    },
  };
}
