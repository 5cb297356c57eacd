import type { AgentWarning } from '@vrs/contracts';
import type { TranscriptFinding } from '../analyst/analyze-transcript';
import type { StoredCitation, StoredResult } from '../repo/runs-repo';
import type { Classification } from './classify';
import {
  type Candidate,
  channelCandidate,
  cite,
  clip,
  confidenceOf,
  outcomeOf,
  projectCandidate,
  verified,
  videoListArtifact,
  videoSource,
} from './compose-answer';
import type { Gathered, GatheredProjectEvidence } from './gathered';
import type { TranscriptWindow } from './windows';

/** Something a tool returned that the model may cite, by the evidence id it was shown with (`ev_<n>`). */
export type Evidence =
  | { kind: 'finding'; finding: TranscriptFinding; window: TranscriptWindow }
  | { kind: 'frame'; window: TranscriptWindow }
  | { kind: 'project'; item: GatheredProjectEvidence }
  | { kind: 'channel' };

/** `[ev_3]`, `[ev_3, ev_7]`: how the model cites (the system prompt asks for it). */
const citationMarker = /\[\s*(ev_[A-Za-z0-9]+(?:\s*,\s*ev_[A-Za-z0-9]+)*)\s*\]/g;

function candidateOf(gathered: Gathered, evidence: Evidence): Candidate | undefined {
  if (evidence.kind === 'finding') {
    // The quote the analyst grounded in the window is the excerpt; the window's range is the citation's.
    const { finding, window } = evidence;
    return { excerpt: clip(finding.quote), claim: finding.claim, score: 1, source: videoSource(gathered, window.videoId), window };
  }
  if (evidence.kind === 'frame') {
    const { window } = evidence;
    return { excerpt: clip(window.text), score: 1, source: videoSource(gathered, window.videoId), window };
  }
  if (evidence.kind === 'project') return projectCandidate(evidence.item, 1);
  return gathered.channel && channelCandidate(gathered.channel);
}

/**
 * The model's answer, held to the evidence (ADR 0026): each `[ev_n]` becomes a citation of what that
 * id was shown with and is verified like the planner's; an id never shown is dropped
 * (`CITATIONS_DROPPED`). Markers are rewritten to `[n]` over the kept citations; an answer left
 * citing nothing is `insufficient_evidence`, so no uncited claim passes through.
 */
export function composeModelAnswer(
  classification: Classification,
  gathered: Gathered,
  evidence: ReadonlyMap<string, Evidence>,
  text: string,
  analystWarnings: readonly AgentWarning[] = [],
): StoredResult {
  const citedIds = [...new Set([...text.matchAll(citationMarker)].flatMap(([, ids = '']) => ids.split(',').map((id) => id.trim())))];
  const known = citedIds.flatMap((id) => {
    const item = evidence.get(id);
    const candidate = item && candidateOf(gathered, item);
    return candidate ? [{ id, candidate }] : [];
  });
  const cited = cite(known.map(({ candidate }) => candidate));
  const { citations } = cited;
  const citationOf = new Map<string, StoredCitation>(known.flatMap(({ id }, i) => (citations[i] ? [[id, citations[i]]] : [])));
  for (const id of citedIds) {
    if (citationOf.has(id)) continue;
    // Cited but never shown: a citation that resolves to nothing, so verification drops it and says so.
    citationOf.set(id, { id: `cit_${id}`, sourceId: `unknown:${id}`, provider: 'youtube', excerpt: '', title: '', url: '' });
  }
  const { kept, warning, citations: final, sources } = verified(gathered, { sources: cited.sources, citations: [...citationOf.values()] });
  const numberOf = new Map<string, number>();
  for (const [id, citation] of citationOf) {
    const position = kept.indexOf(citation);
    if (position >= 0) numberOf.set(id, position + 1);
  }
  const answer = text
    .replace(citationMarker, (_marker, ids: string) =>
      ids
        .split(',')
        .map((id) => numberOf.get(id.trim()))
        .filter((n) => n !== undefined)
        .map((n) => `[${n}]`)
        .join(''),
    )
    .replace(/[ \t]+([.,;:!?])/g, '$1')
    .replace(/[ \t]{2,}/g, ' ')
    .trim();
  const warnings: AgentWarning[] = [...gathered.warnings, ...analystWarnings, ...(warning ? [warning] : [])];
  const passagesForAnswered = classification.route.route === 'channel_question' ? 1 : 2;
  const outcome = outcomeOf(final.length, passagesForAnswered, analystWarnings.length > 0);
  return {
    outcome,
    answer:
      final.length === 0
        ? `Insufficient evidence: the model's answer cited nothing gathered in this run about "${classification.terms.join(' ')}", so it is not shown.`
        : answer,
    intent: classification.route.route,
    confidence: confidenceOf(outcome, final),
    sources,
    citations: final,
    artifacts: videoListArtifact(gathered),
    warnings,
  };
}
