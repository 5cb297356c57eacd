import { citedAnswerSchema, createAnswerInput } from '@vrs/contracts';
import { protectedOperation } from '../../trpc';
import { meteredErrors } from '../errors';

export const createAnswer = protectedOperation({
  method: 'POST',
  path: '/answers',
  operationId: 'createAnswer',
  tags: ['Research'],
  summary: 'Generate a cited answer',
  description:
    "Gathers public evidence for the question (a YouTube search, the titles of its results and transcripts of the best of them) and answers from it alone. Claims are marked `[n]`, n being a citation's `index`; citations the model invented are dropped or repaired (see `warnings`). Without a configured model the answer is extractive (`mode: extractive`); with too little evidence it says so (`mode: insufficient_evidence`). 503 `AI_UNAVAILABLE` when both models fail (refunded). Readable again with `GET /v1/operations/{operationId}`.",
  errorResponses: [...meteredErrors, 422],
})
  .input(createAnswerInput)
  .output(citedAnswerSchema)
  .mutation(({ ctx, input }) =>
    ctx.services.research.answers.create.mutate({ accountId: ctx.principal.accountId, question: input.question }),
  );
