import { describe, expect, it } from 'vitest';
import { groundCitations } from './ground-citations';

interface Claim {
  text: string;
  videoIds: string[];
}

const ground = (claims: Claim[], allowedIds: string[]) =>
  groundCitations({ claims, allowedIds, getIds: (claim) => claim.videoIds, setIds: (claim, videoIds) => ({ ...claim, videoIds }) });

describe('groundCitations', () => {
  it('passes claims citing only allowed ids through unchanged', () => {
    const claims = [{ text: 'a', videoIds: ['v1', 'v2'] }];
    const result = ground(claims, ['v1', 'v2', 'v3']);

    expect(result.claims[0]).toBe(claims[0]);
    expect(result).toMatchObject({ dropped: [], repaired: [], warnings: [] });
  });

  it('repairs a claim whose ids are partly unknown, keeping the valid ones in order', () => {
    const claims = [{ text: 'a', videoIds: ['v2', 'vid_fabricated', 'v1'] }];
    const result = ground(claims, ['v1', 'v2']);

    expect(result.claims).toEqual([{ text: 'a', videoIds: ['v2', 'v1'] }]);
    expect(result.repaired).toEqual([{ index: 0, removedIds: ['vid_fabricated'] }]);
    expect(result.warnings).toEqual(['Removed unknown sources (vid_fabricated) from a claim.']);
    expect(claims[0]?.videoIds).toEqual(['v2', 'vid_fabricated', 'v1']);
  });

  it('drops a claim citing only unknown ids, and one citing nothing', () => {
    const claims = [
      { text: 'kept', videoIds: ['v1'] },
      { text: 'invented', videoIds: ['vid_fabricated', 'x'] },
      { text: 'uncited', videoIds: [] },
    ];
    const result = ground(claims, ['v1']);

    expect(result.claims.map((claim) => claim.text)).toEqual(['kept']);
    expect(result.dropped).toEqual([
      { index: 1, claim: claims[1], unknownIds: ['vid_fabricated', 'x'] },
      { index: 2, claim: claims[2], unknownIds: [] },
    ]);
    expect(result.warnings).toEqual([
      'Dropped a claim citing only unknown sources (vid_fabricated, x).',
      'Dropped a claim that cited no sources.',
    ]);
  });

  it('removes repeated ids without reporting a repair', () => {
    const result = ground([{ text: 'a', videoIds: ['v1', 'v1'] }], ['v1']);

    expect(result.claims).toEqual([{ text: 'a', videoIds: ['v1'] }]);
    expect(result.repaired).toEqual([]);
  });

  it('accepts any iterable of allowed ids', () => {
    const result = groundCitations({
      claims: [{ id: 'ev_1' }, { id: 'ev_2' }],
      allowedIds: new Map([['ev_2', {}]]).keys(),
      getIds: (claim) => [claim.id],
      setIds: (claim) => claim,
    });

    expect(result.claims).toEqual([{ id: 'ev_2' }]);
  });
});
