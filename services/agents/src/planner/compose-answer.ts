import type { AgentArtifact, AgentSource, AgentWarning, AnswerDetail } from '@vrs/contracts';
import type { StoredCitation, StoredResult } from '../repo/runs-repo';
import type { Classification } from './classify';
import { videoUrlOf, type Gathered, type GatheredProjectEvidence, type StopReason } from './gathered';
import { coverageOf } from './terms';
import { verifyCitations } from './verify-citations';
import { rankWindows, type TranscriptWindow } from './windows';
import { required } from '@vrs/kit';
import type { TranscriptFinding } from '../analyst/analyze-transcript';

/** Passages quoted per answer detail. */
export const quotesPerDetail: Record<AnswerDetail, number> = { brief: 2, standard: 3, detailed: 5 };
/** A passage counts as relevant when it mentions at least this share of the topic words. */
const relevantCoverage = 0.34;
/** An answer is `answered` (not `partial`) when its best passage mentions at least this share and it has two passages. */
const answeredCoverage = 0.5;
const excerptChars = 400;

export const stopMessages: Record<StopReason, string> = {
  TOOL_CALL_LIMIT: 'The run reached its tool-call limit; the answer uses what was gathered until then.',
  CREDIT_BUDGET_EXHAUSTED: "The run's credit budget could not pay for the next tool call; the answer uses what was gathered until then.",
  RUN_TIME_LIMIT: 'The run reached its time limit; the answer uses what was gathered until then.',
  MODEL_STEP_LIMIT: "The model did not answer within the run's model-step limit; the answer quotes what was gathered until then.",
  MODEL_UNAVAILABLE: 'No model answered (the primary and the fallback failed); the answer quotes what was gathered until then.',
};

/** A passage an answer may quote: its text, what it is from, and (for a transcript) the window it lies in. */
export interface Candidate {
  excerpt: string;
  /** The analyst's claim the excerpt backs (findings answers only). */
  claim?: string;
  score: number;
  source: Omit<AgentSource, 'id'>;
  window?: TranscriptWindow;
  startMs?: number;
}

export const clip = (text: string) => (text.length > excerptChars ? `${text.slice(0, excerptChars - 1)}…` : text);

/** Numbers sources in order of first citation (deduplicated by what they name) and builds the citations. */
export function cite(candidates: readonly Candidate[]): { sources: AgentSource[]; citations: StoredCitation[] } {
  const sources: AgentSource[] = [];
  const sourceIdOf = new Map<string, string>();
  const citations = candidates.map((candidate, i): StoredCitation => {
    const key = `${candidate.source.type}:${candidate.source.videoId ?? candidate.source.channelId ?? candidate.source.projectId}`;
    let sourceId = sourceIdOf.get(key);
    if (!sourceId) {
      sourceId = `src_${sources.length + 1}`;
      sourceIdOf.set(key, sourceId);
      sources.push({ id: sourceId, ...candidate.source });
    }
    const { window } = candidate;
    return {
      id: `cit_${i + 1}`,
      sourceId,
      provider: 'youtube',
      excerpt: candidate.excerpt,
      ...(candidate.source.videoId ? { videoId: candidate.source.videoId } : {}),
      ...(candidate.source.channelId ? { channelId: candidate.source.channelId } : {}),
      title: candidate.source.title,
      url: window ? videoUrlOf(window.videoId, window.startMs) : candidate.source.url,
      ...(window ? { startMs: window.startMs, endMs: window.endMs, window: { startMs: window.startMs, endMs: window.endMs } } : {}),
      ...(candidate.startMs !== undefined && !window ? { startMs: candidate.startMs, endMs: candidate.startMs } : {}),
    };
  });
  return { sources, citations };
}

export function videoSource(gathered: Gathered, videoId: string): Omit<AgentSource, 'id'> {
  const video = gathered.videos.get(videoId);
  return {
    type: 'video',
    provider: 'youtube',
    videoId,
    ...(video?.channelId ? { channelId: video.channelId } : {}),
    title: video?.title ?? videoId,
    url: videoUrlOf(videoId),
  };
}

function windowCandidates(gathered: Gathered, windows: readonly TranscriptWindow[], terms: readonly string[]): Candidate[] {
  return rankWindows(windows, terms)
    .filter((window) => window.score >= relevantCoverage)
    .map((window) => ({ excerpt: clip(window.text), score: window.score, source: videoSource(gathered, window.videoId), window }));
}

/** A saved project evidence item as a quotable passage. */
export function projectCandidate(item: GatheredProjectEvidence, score: number): Candidate {
  return {
    excerpt: clip(item.text),
    score,
    source: {
      type: 'project_evidence' as const,
      provider: 'youtube' as const,
      projectId: item.projectId,
      title: `Project evidence ${item.id}`,
      url: `/v1/projects/${item.projectId}/search`,
    },
    ...(item.startMs === undefined ? {} : { startMs: item.startMs }),
  };
}

function projectCandidates(gathered: Gathered, terms: readonly string[]): Candidate[] {
  return gathered.projectEvidence
    .map((item) => ({ item, score: coverageOf(item.text, terms) }))
    .filter(({ score }) => score >= relevantCoverage)
    .map(({ item, score }) => projectCandidate(item, score));
}

/** What an extractive answer says it is: without a model, or (the model loop's finalizer) a model that did not finish. */
export const extractiveLabels = {
  noModel: 'Extractive answer (no language model is configured; the most relevant passages, quoted):',
  modelUnfinished: 'Extractive answer (the model did not finish within the run; the most relevant passages gathered, quoted):',
} as const;

export function confidenceOf(outcome: StoredResult['outcome'], citations: readonly StoredCitation[]): StoredResult['confidence'] {
  if (outcome === 'answered') return citations.length >= 3 && new Set(citations.map((c) => c.sourceId)).size >= 2 ? 'high' : 'medium';
  return outcome === 'partial' ? 'low' : 'none';
}

/** Nothing cited is `insufficient_evidence`; too few passages, or anything `weak`, is at most `partial`. */
export function outcomeOf(cited: number, passagesForAnswered: number, weak: boolean): StoredResult['outcome'] {
  if (cited === 0) return 'insufficient_evidence';
  return weak || cited < passagesForAnswered ? 'partial' : 'answered';
}

/** The citations that pass verification (`kept`), renumbered (`citations`), and the sources they still cite. */
export function verified(gathered: Gathered, cited: { sources: AgentSource[]; citations: StoredCitation[] }) {
  const { kept, warning } = verifyCitations(cited.citations, { sources: cited.sources, fetchedVideoIds: new Set(gathered.videos.keys()) });
  const citations = kept.map((citation, i) => ({ ...citation, id: `cit_${i + 1}` }));
  const usedSourceIds = new Set(citations.map((citation) => citation.sourceId));
  return { kept, warning, citations, sources: cited.sources.filter((source) => usedSourceIds.has(source.id)) };
}

/** A channel's profile as the one passage a channel answer quotes: its description, or its title without one. */
export function channelCandidate(channel: NonNullable<Gathered['channel']>): Candidate {
  return {
    excerpt: clip(channel.description || channel.title),
    score: 1,
    source: { type: 'channel', provider: 'youtube', channelId: channel.id, title: channel.title, url: channel.url },
  };
}

interface FinishOptions {
  /** Passages an `answered` outcome needs (a channel's own profile is one). */
  passagesForAnswered?: number;
  /** Something the answer should rest on is missing (findings dropped, an analysis failed): at most `partial`. */
  incomplete?: boolean;
}

function finish<C extends Candidate>(
  classification: Classification,
  gathered: Gathered,
  candidates: C[],
  /** `kept[i]` is the candidate `citations[i]` was made from. */
  build: (citations: StoredCitation[], kept: C[]) => { answer: string; artifacts: AgentArtifact[] },
  { passagesForAnswered = 2, incomplete = false }: FinishOptions = {},
): StoredResult {
  const cited = cite(candidates);
  const { kept, warning, citations: final, sources } = verified(gathered, cited);
  const keptCandidates = kept.map((citation) =>
    required(candidates[cited.citations.indexOf(citation)], 'the candidate of a kept citation'),
  );
  const warnings: AgentWarning[] = [...gathered.warnings, ...(warning ? [warning] : [])];
  if (gathered.stoppedBy) warnings.push({ code: gathered.stoppedBy, message: stopMessages[gathered.stoppedBy] });
  const best = Math.max(0, ...candidates.map((candidate) => candidate.score));
  const outcome = outcomeOf(final.length, passagesForAnswered, incomplete || gathered.stoppedBy !== undefined || best < answeredCoverage);
  const { answer, artifacts } =
    final.length === 0
      ? {
          answer: `Insufficient evidence: nothing gathered in this run answers "${classification.terms.join(' ')}" well enough to quote.`,
          artifacts: [],
        }
      : build(final, keptCandidates);
  return {
    outcome,
    answer,
    intent: classification.route.route,
    confidence: confidenceOf(outcome, final),
    sources,
    citations: final,
    artifacts,
    warnings,
  };
}

function comparisonArtifact(classification: Classification, gathered: Gathered): AgentArtifact[] {
  return [
    {
      type: 'comparison_table',
      title: 'Videos compared',
      data: { videos: classification.videoIds.map((id) => gathered.videos.get(id) ?? { id, unavailable: true }) },
    },
  ];
}

export function videoListArtifact(gathered: Gathered): AgentArtifact[] {
  if (gathered.videos.size === 0) return [];
  return [{ type: 'video_list', title: 'Videos considered', data: { videos: [...gathered.videos.values()] } }];
}

/** The routes answered without evidence. */
const withoutEvidence = {
  clarification: {
    outcome: 'needs_clarification',
    answer:
      'Which topic, video or channel should I research? Name it in a few words (for example "how to insert a laryngeal mask airway"), or paste a YouTube link.',
  },
  out_of_scope: {
    outcome: 'rejected',
    answer: 'I research YouTube videos, channels and your projects and answer with citations; I cannot act on YouTube or on accounts.',
  },
} as const;

/**
 * The deterministic planner's answer (ADR 0026): extractive, labelled as such, every sentence a
 * quoted passage with its citation. Clarification and out-of-scope routes answer without evidence.
 */
export function composeAnswer(
  classification: Classification,
  gathered: Gathered,
  extractiveLabel: string = extractiveLabels.noModel,
): StoredResult {
  const { route, terms } = classification;
  const quotes = quotesPerDetail[route.answerDetail];
  if (route.route === 'clarification' || route.route === 'out_of_scope') {
    return {
      intent: route.route,
      sources: [],
      citations: [],
      artifacts: [],
      warnings: gathered.warnings,
      confidence: 'none',
      ...withoutEvidence[route.route],
    };
  }
  if (route.route === 'channel_question') {
    const channel = gathered.channel;
    return finish(
      classification,
      gathered,
      channel ? [channelCandidate(channel)] : [],
      (citations) => {
        // Built only when something is cited, and the channel's description is the only candidate.
        const [quoted] = citations;
        if (!channel || !quoted) throw new Error('a channel answer was built without the channel its citation quotes');
        return {
          answer: `${channel.title}${channel.handle ? ` (${channel.handle})` : ''}: ${channel.subscriberCount ?? 'an unknown number of'} subscribers, ${channel.videoCount ?? 'an unknown number of'} videos. Its description says: "${quoted.excerpt}" [1]`,
          artifacts: [{ type: 'channel_profile', title: channel.title, data: { ...channel } }],
        };
      },
      { passagesForAnswered: 1 },
    );
  }
  if (route.route === 'video_comparison') {
    const perVideo = classification.videoIds.flatMap((videoId) =>
      windowCandidates(
        gathered,
        gathered.windows.filter((window) => window.videoId === videoId),
        terms,
      ).slice(0, 1),
    );
    return finish(classification, gathered, perVideo, (citations) => ({
      answer: `${extractiveLabel} ${citations.map((citation, i) => `${citation.title}: "${citation.excerpt}" [${i + 1}]`).join(' ')}`,
      artifacts: comparisonArtifact(classification, gathered),
    }));
  }
  const candidates = [...windowCandidates(gathered, gathered.windows, terms), ...projectCandidates(gathered, terms)]
    .sort((a, b) => b.score - a.score)
    .slice(0, quotes);
  return finish(classification, gathered, candidates, (citations) => ({
    answer: `${extractiveLabel} ${citations.map((citation, i) => `"${citation.excerpt}" [${i + 1}]`).join(' ')}`,
    artifacts: videoListArtifact(gathered),
  }));
}

const findingsLabel = 'Findings of the transcript analyst (each claim rests on the passage it cites, quoted verbatim):';
// A model's own `[n]` markers point at its window numbers, not at this answer's citations.
const modelMarkers = /\s*\[\d+(?:\s*,\s*\d+)*\]/g;

/**
 * The answer when the transcript analyst ran (ADR 0026): its grounded findings, best-matching first,
 * each claim cited by its quote; findings dropped or analyses failed leave it at most `partial`.
 */
export function composeFindingsAnswer(
  classification: Classification,
  gathered: Gathered,
  analysis: { findings: readonly TranscriptFinding[]; warnings: readonly AgentWarning[] },
): StoredResult {
  const { route, terms } = classification;
  const windowOf = new Map(gathered.windows.map((window) => [`${window.videoId}|${window.index}`, window]));
  const candidates = analysis.findings
    .flatMap((finding): (Candidate & { claim: string })[] => {
      const window = windowOf.get(`${finding.videoId}|${finding.windowIndex}`);
      if (!window) return [];
      return [
        {
          excerpt: clip(finding.quote),
          claim: finding.claim.replace(modelMarkers, '').trim(),
          score: coverageOf(window.text, terms),
          source: videoSource(gathered, finding.videoId),
          window,
        },
      ];
    })
    .sort((a, b) => b.score - a.score)
    .slice(0, quotesPerDetail[route.answerDetail]);
  const withWarnings: Gathered = { ...gathered, warnings: [...gathered.warnings, ...analysis.warnings] };
  return finish(
    classification,
    withWarnings,
    candidates,
    (_citations, kept) => ({
      answer: `${findingsLabel} ${kept.map((candidate, i) => `${candidate.claim.replace(/[.\s]+$/, '')} [${i + 1}].`).join(' ')}`,
      artifacts: route.route === 'video_comparison' ? comparisonArtifact(classification, gathered) : videoListArtifact(gathered),
    }),
    { incomplete: analysis.warnings.length > 0 },
  );
}
