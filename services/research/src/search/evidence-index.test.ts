import { describe, expect, it } from 'vitest';
import { createEvidenceIndex, searchIndex } from './evidence-index';

function indexOf(texts: string[]) {
  const index = createEvidenceIndex();
  for (const [i, text] of texts.entries()) index.add({ _id: `ev_${i}`, text } as never);
  return index;
}

describe('searchIndex', () => {
  it('widens to prefix and fuzzy matches only when exact terms cannot fill the page', () => {
    const index = indexOf(['monetization strategies for creators', 'monetize your channel', 'unrelated cooking video']);
    const widened = searchIndex(index, 'monetiz', 10);
    expect(widened.map((hit) => hit.id).sort()).toEqual(['ev_0', 'ev_1']);

    const narrow = searchIndex(index, 'monetize', 1);
    expect(narrow).toEqual([expect.objectContaining({ id: 'ev_1', index: 1 })]);
  });

  it('keeps exact hits ahead and ranks with 1-based indexes', () => {
    const index = indexOf(['espresso espresso crema', 'espresso', 'espressos are strong', 'tea']);
    const hits = searchIndex(index, 'espresso', 10);
    expect(hits.map((hit) => hit.index)).toEqual(hits.map((_, i) => i + 1));
    expect(
      hits
        .slice(0, 2)
        .map((hit) => hit.id)
        .sort(),
    ).toEqual(['ev_0', 'ev_1']);
    expect(hits.map((hit) => hit.id)).toContain('ev_2');
    expect(hits.map((hit) => hit.id)).not.toContain('ev_3');
  });
});
