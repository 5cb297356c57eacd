import { searchEvidenceInputSchema, searchQuerySchema, type SearchResult } from '@vrs/contracts';
import { AppError, procedure } from '@vrs/kit';
import type { ResearchDeps } from '../../research-deps';
import { requireOwnedProject } from '../projects/require-owned-project';

/** `q` is checked in the resolver rather than by zod, so a missing or blank one answers QUERY_REQUIRED as the contract says. */
const searchInputSchema = searchEvidenceInputSchema.extend({ q: searchQuerySchema.optional() });

/**
 * searchPrivateEvidence. The hot path is one store read (the project, for ownership and its index
 * version) and one query of the search engine while its index is current, none when the same query
 * was answered at the same index state (the result cache of `createEvidenceSearch`). No output schema: the
 * results are built in the contract's shape here, and parsing them again would cost every search.
 */
export const searchEvidence = ({ projects, search }: ResearchDeps) =>
  procedure.input(searchInputSchema).query(async ({ input }): Promise<SearchResult> => {
    const query = input.q?.trim();
    if (!query) throw new AppError('QUERY_REQUIRED');
    const project = await requireOwnedProject(projects, input.accountId, input.projectId);
    const results = await search.search(project._id, project.indexVersion, query, input.limit, project.indexResetVersion);
    return { query, results: [...results] };
  });
