import { describe, expect, it } from 'vitest';
import type { Llm } from '@vrs/ai';
import type { Evidence } from '@vrs/contracts';
import { composeCitedAnswer } from './compose-cited-answer';

const evidence: Evidence[] = [
  { id: 'ev_a', score: 2, text: 'Finer grinds extract faster.', index: 1 },
  { id: 'ev_b', score: 1.5, text: 'A 1:2 ratio is balanced.', index: 2 },
  { id: 'ev_c', score: 1, text: 'Steam milk below 70 °C.', index: 3 },
  { id: 'ev_d', score: 0.5, text: 'Descale monthly.', index: 4 },
];

/** A model that always answers `claims`, as the primary. */
function llmAnswering(claims: { text: string; evidenceIds: string[] }[]): Llm {
  return {
    models: ['m'],
    generateObject: async <T>() => ({ object: { claims } as T, model: 'm', usage: {}, finishReason: 'stop', attempts: [] }),
    step: async () => {
      throw new Error('not used: answers take no tool steps');
    },
  };
}

describe('composeCitedAnswer', () => {
  it('numbers cited evidence in order of first use, rebuilds the markers, and drops or repairs invented citations', async () => {
    const composed = await composeCitedAnswer(
      llmAnswering([
        { text: 'Grind finer for speed [4] (ev_b).', evidenceIds: ['ev_b', 'ev_x'] },
        { text: 'Invented.', evidenceIds: ['ev_y'] },
        { text: 'Ratio and grind both matter.', evidenceIds: ['ev_a', 'ev_b'] },
      ]),
      'espresso',
      evidence,
    );
    expect(composed.answer).toBe('Grind finer for speed. [1] Ratio and grind both matter. [2, 1]');
    expect(composed.citations.map((c) => [c.id, c.index])).toEqual([
      ['ev_b', 1],
      ['ev_a', 2],
    ]);
    expect(composed).toMatchObject({ mode: 'llm', model: 'm' });
    expect(composed.warnings).toEqual([
      'Removed unknown sources (ev_x) from a claim.',
      'Dropped a claim citing only unknown sources (ev_y).',
    ]);
  });

  it('says the evidence is insufficient when there is none, or when every claim was invented', async () => {
    expect(await composeCitedAnswer(llmAnswering([]), 'volcanoes', [])).toMatchObject({ mode: 'insufficient_evidence', citations: [] });
    const invented = await composeCitedAnswer(llmAnswering([{ text: 'x', evidenceIds: ['ev_z'] }]), 'espresso', evidence);
    expect(invented).toMatchObject({ mode: 'insufficient_evidence', citations: [], model: 'm' });
  });

  it('quotes the best three items, labelled, without a model', async () => {
    const composed = await composeCitedAnswer(null, 'espresso', evidence);
    expect(composed.mode).toBe('extractive');
    expect(composed.citations.map((c) => c.id)).toEqual(['ev_a', 'ev_b', 'ev_c']);
    expect(composed.answer).toMatch(
      /^Extractive answer .* "Finer grinds extract faster\." \[1\] "A 1:2 ratio is balanced\." \[2\] "Steam milk below 70 °C\." \[3\]$/,
    );
  });
});
