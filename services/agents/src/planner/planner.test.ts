import { describe, expect, it } from 'vitest';
import type { AgentSource } from '@vrs/contracts';
import type { StoredCitation } from '../repo/runs-repo';
import { classify } from './classify';
import { composeAnswer, composeFindingsAnswer } from './compose-answer';
import { emptyGathered } from './gathered';
import { verifyCitations } from './verify-citations';
import { windowsOf } from './windows';

const options = {};
const routeOf = (message: string, context: string[] = []) => classify({ message, context, options });

describe('the deterministic classifier', () => {
  it.each([
    ['How do you insert a laryngeal mask airway?', 'topic_research'],
    ['what does https://youtu.be/rCAS2eD-mcw say about the cuff', 'video_question'],
    ['compare rCAS2eD-mcw and vrsFixture1 on sizing', 'video_comparison'],
    ['What does @EEVblog publish?', 'channel_question'],
    ['   ', 'clarification'],
    ['hi', 'clarification'],
    ['Please delete my comments', 'out_of_scope'],
    ['Information retrieval techniques', 'topic_research'],
  ])('%j → %s', (message, route) => {
    expect(routeOf(message).route.route).toBe(route);
  });

  it('derives the search query from the topic words and fills the route defaults', () => {
    expect(routeOf('How do you insert a laryngeal mask airway?').route).toEqual({
      route: 'topic_research',
      researchBreadth: 'standard',
      searchQuery: 'insert laryngeal mask airway',
      useStoryboard: false,
      answerDetail: 'standard',
    });
  });

  it('takes the topic of the previous turn for a follow-up without one of its own', () => {
    expect(routeOf('tell me more', ['How do you insert a laryngeal mask airway?']).route).toMatchObject({
      route: 'topic_research',
      searchQuery: 'insert laryngeal mask airway',
    });
    expect(routeOf('tell me more').route.route).toBe('clarification');
  });
});

describe('citation verification', () => {
  const sources: AgentSource[] = [{ id: 'src_1', type: 'video', provider: 'youtube', videoId: 'abcdefghijk', title: 't', url: 'u' }];
  const citation = (overrides: Partial<StoredCitation>): StoredCitation => ({
    id: 'cit_1',
    sourceId: 'src_1',
    provider: 'youtube',
    excerpt: 'x',
    videoId: 'abcdefghijk',
    title: 't',
    url: 'u',
    startMs: 1000,
    endMs: 2000,
    window: { startMs: 0, endMs: 5000 },
    ...overrides,
  });

  it('keeps what resolves and drops, with one warning, an unknown source, an unfetched video and a range outside its window', () => {
    const { kept, warning } = verifyCitations(
      [
        citation({}),
        citation({ id: 'cit_2', sourceId: 'src_9' }),
        citation({ id: 'cit_3', videoId: 'zzzzzzzzzzz' }),
        citation({ id: 'cit_4', endMs: 6000 }),
        citation({ id: 'cit_5', window: undefined }),
        citation({ id: 'cit_6', startMs: undefined, endMs: undefined, window: undefined }),
      ],
      { sources, fetchedVideoIds: new Set(['abcdefghijk']) },
    );
    expect(kept.map((c) => c.id)).toEqual(['cit_1', 'cit_6']);
    expect(warning).toMatchObject({ code: 'CITATIONS_DROPPED', message: expect.stringMatching(/^4 citations/) });
  });
});

describe('the extractive answer', () => {
  const segments = [
    { startMs: 0, endMs: 4000, text: 'Today we look at inserting a laryngeal mask airway.' },
    { startMs: 30_000, endMs: 34_000, text: 'A laryngeal mask does not protect the airway against aspiration.' },
    { startMs: 60_000, endMs: 64_000, text: 'Thanks for watching.' },
  ];

  function gatheredWith(windows = windowsOf('abcdefghijk', segments)) {
    const gathered = emptyGathered();
    gathered.videos.set('abcdefghijk', {
      id: 'abcdefghijk',
      title: 'LMA',
      channelId: 'UC1',
      channelName: 'c',
      durationSeconds: 70,
      viewCount: 1,
    });
    gathered.windows.push(...windows);
    return gathered;
  }

  it('quotes the relevant windows with resolving citations and labels itself', () => {
    const result = composeAnswer(routeOf('How do you insert a laryngeal mask airway?'), gatheredWith());
    expect(result).toMatchObject({ outcome: 'answered', intent: 'topic_research', confidence: 'medium' });
    expect(result.answer).toMatch(/^Extractive answer/);
    expect(result.citations.map((c) => [c.id, c.sourceId, c.startMs, c.endMs])).toEqual([
      ['cit_1', 'src_1', 0, 4000],
      ['cit_2', 'src_1', 30_000, 34_000],
    ]);
    expect(result.sources).toHaveLength(1);
  });

  it('is partial when gathering stopped early, and insufficient without relevant passages', () => {
    const stopped = gatheredWith();
    stopped.stoppedBy = 'TOOL_CALL_LIMIT';
    const partial = composeAnswer(routeOf('How do you insert a laryngeal mask airway?'), stopped);
    expect(partial.outcome).toBe('partial');
    expect(partial.warnings).toContainEqual(expect.objectContaining({ code: 'TOOL_CALL_LIMIT' }));
    const none = composeAnswer(routeOf('quantum chromodynamics lattice'), gatheredWith());
    expect(none).toMatchObject({ outcome: 'insufficient_evidence', confidence: 'none', citations: [], sources: [] });
  });

  it('asks for clarification, and rejects out-of-scope requests, without evidence', () => {
    expect(composeAnswer(routeOf('hi'), emptyGathered())).toMatchObject({ outcome: 'needs_clarification', citations: [] });
    expect(composeAnswer(routeOf('subscribe me to this channel'), emptyGathered())).toMatchObject({ outcome: 'rejected' });
  });
});

describe('the findings answer (the transcript analyst ran)', () => {
  const question = routeOf('How do you insert a laryngeal mask airway?');
  const segments = [
    { startMs: 0, endMs: 4000, text: 'Today we look at inserting a laryngeal mask airway.' },
    { startMs: 30_000, endMs: 34_000, text: 'Insert the laryngeal mask along the palate.' },
  ];
  const gathered = () => {
    const result = emptyGathered();
    result.videos.set('abcdefghijk', {
      id: 'abcdefghijk',
      title: 'LMA',
      channelId: 'UC1',
      channelName: 'c',
      durationSeconds: 40,
      viewCount: 1,
    });
    result.windows.push(...windowsOf('abcdefghijk', segments));
    return result;
  };
  const finding = (windowIndex: number, quote: string, claim: string) => ({
    videoId: 'abcdefghijk',
    claim,
    quote,
    windowIndex,
    startMs: segments[windowIndex]!.startMs,
    endMs: segments[windowIndex]!.endMs,
  });
  const findings = [
    finding(0, 'inserting a laryngeal mask airway', 'The video covers LMA insertion [0].'),
    finding(1, 'along the palate', 'The mask goes along the palate [1].'),
  ];

  it('cites each finding’s quote with its window’s time range, the claims in the answer with this answer’s markers', () => {
    const result = composeFindingsAnswer(question, gathered(), { findings, warnings: [] });

    expect(result).toMatchObject({ outcome: 'answered', confidence: 'medium' });
    expect(result.citations.map((c) => [c.id, c.excerpt, c.startMs, c.endMs])).toEqual([
      ['cit_1', 'inserting a laryngeal mask airway', 0, 4000],
      ['cit_2', 'along the palate', 30_000, 34_000],
    ]);
    expect(result.answer).toMatch(
      /^Findings of the transcript analyst.*: The video covers LMA insertion \[1\]\. The mask goes along the palate \[2\]\.$/,
    );
  });

  it('is at most partial, with the analyst’s warnings, when findings were dropped; insufficient with none left', () => {
    const warning = { code: 'FINDINGS_DROPPED', message: 'x' };
    const partial = composeFindingsAnswer(question, gathered(), { findings, warnings: [warning] });
    expect(partial.outcome).toBe('partial');
    expect(partial.warnings).toContainEqual(warning);

    const none = composeFindingsAnswer(question, gathered(), { findings: [], warnings: [warning] });
    expect(none).toMatchObject({ outcome: 'insufficient_evidence', citations: [], warnings: [warning] });
  });

  it('drops a finding whose window the run never read', () => {
    const stray = { ...finding(1, 'along the palate', 'x'), videoId: 'zzzzzzzzzzz' };
    expect(composeFindingsAnswer(question, gathered(), { findings: [stray], warnings: [] }).citations).toEqual([]);
  });
});
