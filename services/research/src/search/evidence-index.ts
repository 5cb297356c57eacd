import MiniSearch, { type SearchOptions } from 'minisearch';
import type { Evidence } from '@vrs/contracts';
import type { IndexableEvidence } from '../repo/evidence-repo';

export type EvidenceIndex = MiniSearch<IndexableEvidence>;

/**
 * Ranking is MiniSearch's BM25+ (BM25 with a floor on the term-frequency part, so a long item that
 * contains a query word never scores like one that lacks it); its parameters are spelled out so an
 * upgrade cannot change them silently. Words combine with OR: an item matching some of the words
 * still ranks, below the items matching more. Prefix and fuzzy matching are used sparingly: a query word of 4+ letters also matches words it
 * begins ("monetiz" finds "monetization"), and one of 6+ letters tolerates one typo. Shorter words
 * would match too much, and fuzzy lookups are the costly part of a query on a large index. MiniSearch
 * weights such matches below exact ones (prefix 0.375, fuzzy 0.45), so exact hits still rank first.
 */
const searchOptions: SearchOptions = {
  bm25: { k: 1.2, b: 0.7, d: 0.5 },
  prefix: (term) => term.length >= 4,
  fuzzy: (term) => (term.length >= 6 ? 1 : false),
  combineWith: 'OR',
};

/**
 * Tokenization is MiniSearch's default: split on Unicode spaces and punctuation, lower-case each
 * term (for documents and queries alike). The result fields are stored in the index so a search
 * needs no store read for them.
 */
export function createEvidenceIndex(): EvidenceIndex {
  return new MiniSearch<IndexableEvidence>({
    idField: '_id',
    fields: ['text'],
    storeFields: ['text', 'sourceKey', 'entityId', 'startMs', 'provider'],
    searchOptions,
  });
}

/**
 * Adds the document, or swaps in its new version. The old version is removed with the text the index
 * stored for it, rather than `replace` (which only discards): discarded postings linger until a
 * vacuum and skew BM25's document frequencies, so replicas with different histories would score the
 * same content differently.
 */
export function upsertIntoIndex(index: EvidenceIndex, doc: IndexableEvidence): void {
  const previous = index.getStoredFields(doc._id);
  if (previous) index.remove({ _id: doc._id, text: previous.text as string });
  index.add(doc);
}

/** Four decimals: enough to keep distinct ranks apart, without float noise in responses. */
function roundScore(score: number): number {
  return Math.round(score * 10_000) / 10_000;
}

const exactOnly: SearchOptions = { prefix: false, fuzzy: false };

/**
 * The best `limit` hits as contract Evidence, best first, `index` = 1-based rank; unset fields stay
 * absent. Exact terms are tried first: when they alone fill the page, prefix and fuzzy matches
 * (weighted well below exact ones) would rarely enter it, and skipping them avoids scoring the
 * many weak hits they add — several times the cost on a large project (bench/search). Only a
 * page that exact terms cannot fill is widened to prefix and fuzzy matches.
 */
export function searchIndex(index: EvidenceIndex, query: string, limit: number): Evidence[] {
  const exact = index.search(query, exactOnly);
  const hits = exact.length >= limit ? exact : index.search(query);
  const count = Math.min(limit, hits.length);
  const results: Evidence[] = new Array(count);
  for (let rank = 0; rank < count; rank++) {
    const hit = hits[rank];
    const evidence: Evidence = { id: hit.id, score: roundScore(hit.score), text: hit.text };
    if (hit.provider !== undefined) evidence.provider = hit.provider;
    if (hit.entityId !== undefined) evidence.entityId = hit.entityId;
    if (hit.startMs !== undefined) evidence.startMs = hit.startMs;
    if (hit.sourceKey !== undefined) evidence.sourceKey = hit.sourceKey;
    evidence.index = rank + 1;
    results[rank] = evidence;
  }
  return results;
}
