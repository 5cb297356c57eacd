import { createAnswerInputSchema, type CitedAnswer } from '@vrs/contracts';
import { forRequest, procedure } from '@vrs/kit';
import { composeCitedAnswer, maxEvidence } from '../../answers/compose-cited-answer';
import { gatherPublicEvidence } from '../../answers/gather-public-evidence';
import type { ResearchDeps } from '../../research-deps';

/** A cited answer from public evidence (a YouTube search and transcripts), stored as an operation. */
export const createAnswer = ({ provider, llm, operations }: ResearchDeps) =>
  procedure.input(createAnswerInputSchema).mutation(async ({ input, ctx, signal }): Promise<CitedAnswer> => {
    const { evidence, warnings } = await gatherPublicEvidence(forRequest(provider, ctx), input.question, maxEvidence);
    const composed = await composeCitedAnswer(llm, input.question, evidence, signal, ctx.trace);
    const operation = await operations.save(input.accountId, {
      kind: 'answer',
      question: input.question,
      ...composed,
      warnings: [...warnings, ...composed.warnings],
    });
    return { ...composed, warnings: operation.warnings, operationId: operation.id };
  });
