import { createReportInputSchema, type CitedAnswer } from '@vrs/contracts';
import { procedure } from '@vrs/kit';
import { composeCitedAnswer, maxEvidence } from '../../answers/compose-cited-answer';
import type { ResearchDeps } from '../../research-deps';
import { requireOwnedProject } from '../projects/require-owned-project';

/**
 * An evidence-first report: the project's evidence is retrieved first (the same index as project
 * search), and the report is written from it alone, so every citation is a stored Evidence item.
 */
export const createReport = ({ projects, search, llm, operations }: ResearchDeps) =>
  procedure.input(createReportInputSchema).mutation(async ({ input, ctx, signal }): Promise<CitedAnswer> => {
    const project = await requireOwnedProject(projects, input.accountId, input.projectId);
    const evidence = await search.search(project._id, project, input.prompt, maxEvidence);
    const composed = await composeCitedAnswer(llm, input.prompt, evidence, signal, ctx.trace);
    const operation = await operations.save(input.accountId, { kind: 'report', prompt: input.prompt, projectId: project._id, ...composed });
    return { ...composed, operationId: operation.id };
  });
