import { searchEvidenceInputSchema, searchQuerySchema, type Evidence, type SearchResult } from '@vrs/contracts';
import { AppError, procedure, shareJson } from '@vrs/kit';
import type { ResearchDeps } from '../../research-deps';
import { requireOwnedProject } from '../projects/require-owned-project';

/** `q` is checked in the resolver rather than by zod, so a missing or blank one answers QUERY_REQUIRED as the contract says. */
const searchInputSchema = searchEvidenceInputSchema.extend({ q: searchQuerySchema.optional() });

/**
 * searchPrivateEvidence: one store read (the project, for ownership and its index version) and, beside
 * it, the engine or `createEvidenceSearch`'s result cache. No output schema: the results are built in the
 * contract's shape here, and parsing them again would cost every search.
 */
export const searchEvidence = ({ projects, search }: ResearchDeps) => {
  /** The answer of each cached page (a page is read for one query), shared: an in-process caller gets it without a copy. */
  const answers = new WeakMap<readonly Evidence[], SearchResult>();
  return procedure.input(searchInputSchema).query(async ({ input }): Promise<SearchResult> => {
    const query = input.q?.trim();
    if (!query) throw new AppError('QUERY_REQUIRED');
    // The project's read (ownership and its index version) and the engine's query go together (ADR 0115).
    const results = await search.search(
      input.projectId,
      requireOwnedProject(projects, input.accountId, input.projectId),
      query,
      input.limit,
    );
    let answer = answers.get(results);
    if (!answer) {
      answer = shareJson({ query, results: [...results] });
      answers.set(results, answer);
    }
    return answer;
  });
};
