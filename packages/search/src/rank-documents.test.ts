import { describe, expect, it } from 'vitest';
import { rankDocuments } from './rank-documents';

describe('rankDocuments', () => {
  it('ranks documents held nowhere with the same BM25 and widening as an index', () => {
    const hits = rankDocuments(
      [
        { id: 'a', text: 'espresso espresso crema', stored: { sourceKey: 'k:a' } },
        { id: 'b', text: 'espresso' },
        { id: 'c', text: 'espressos are strong' },
        { id: 'd', text: 'tea' },
      ],
      'espresso',
      10,
    );
    expect(hits.map((hit) => hit.id).slice(2)).toEqual(['c']);
    expect(new Set(hits.slice(0, 2).map((hit) => hit.id))).toEqual(new Set(['a', 'b']));
    expect(hits.find((hit) => hit.id === 'a')?.stored).toEqual({ sourceKey: 'k:a' });
    expect(rankDocuments([], 'espresso', 10)).toEqual([]);
  });
});
