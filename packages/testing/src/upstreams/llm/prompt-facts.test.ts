import { describe, expect, it } from 'vitest';
import { fabricatedIdLike, idsForField, readPromptFacts } from './prompt-facts';

describe('readPromptFacts', () => {
  it('finds prefixed ids, labelled ids and ids inside embedded JSON, in prompt order', () => {
    const facts = readPromptFacts(
      'Use ev_7f3a9 and prj_12.\nvideoId: dQw4w9WgXcQ\n{"videos":[{"videoId":"abcDEF12345","channelId":"UC123456"}]}',
    );

    expect(facts.ids).toEqual([
      { value: 'ev_7f3a9', labels: ['ev'] },
      { value: 'prj_12', labels: ['prj'] },
      { value: 'dQw4w9WgXcQ', labels: ['video'] },
      { value: 'abcDEF12345', labels: ['video'] },
      { value: 'UC123456', labels: ['channel'] },
    ]);
  });

  it('does not take snake_case words or fabricated ids for ids', () => {
    expect(readPromptFacts('trend_score and sample_size; vid_fabricated').ids).toEqual([]);
  });

  it('reads [n] entries and the first line as the topic', () => {
    const facts = readPromptFacts('Espresso grind size\n[1] Finer is faster.\n  [2] Coarse is sour.  \nnot [3] an entry');

    expect(facts.entries).toEqual([
      { index: 1, text: 'Finer is faster.' },
      { index: 2, text: 'Coarse is sour.' },
    ]);
    expect(facts.topic).toBe('Espresso grind size');
  });
});

describe('idsForField', () => {
  const facts = readPromptFacts('[1] (id: ev_1) a\nvideoId: dQw4w9WgXcQ');

  it('matches a field name to the ids labelled like it', () => {
    expect(idsForField(facts, 'evidenceIds').map(({ value }) => value)).toEqual(['ev_1']);
    expect(idsForField(facts, 'videoIds').map(({ value }) => value)).toEqual(['dQw4w9WgXcQ']);
    expect(idsForField(facts, 'videoId').map(({ value }) => value)).toEqual(['dQw4w9WgXcQ']);
  });

  it('gives every id to a field whose name says nothing', () => {
    expect(idsForField(facts, 'ids')).toHaveLength(2);
    expect(idsForField(facts, 'sources')).toHaveLength(2);
  });

  it('fabricates ids shaped like the real ones', () => {
    expect(fabricatedIdLike(idsForField(facts, 'evidenceIds'))).toBe('ev_fabricated');
    expect(fabricatedIdLike(idsForField(facts, 'videoIds'))).toBe('vid_fabricated');
  });
});
