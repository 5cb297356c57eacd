import { agentRunDetailSchema, agentRunViewSchema, type AgentRunDetail, getAgentRunInput } from '@vrs/contracts';
import { AppError } from '@vrs/kit';
import { protectedOperation } from '../../trpc';
import { authenticatedErrors } from '../errors';

/** `details` as the list it names; an unknown item is DETAILS_INVALID. */
function parseDetails(details: string | undefined): AgentRunDetail[] {
  if (details === undefined) return [];
  const items = details.split(',').map((item) => item.trim());
  const unknown = items.filter((item) => !agentRunDetailSchema.safeParse(item).success);
  if (unknown.length > 0) {
    const message = `details: unknown item${unknown.length === 1 ? '' : 's'} ${unknown.map((item) => JSON.stringify(item)).join(', ')}; allowed: artifacts, evidence, diagnostics.`;
    throw new AppError('DETAILS_INVALID', message, { issues: [{ path: 'details', message }] });
  }
  return [...new Set(items.map((item) => agentRunDetailSchema.parse(item)))];
}

export const getAgentRun = protectedOperation({
  method: 'GET',
  path: '/agent/{sessionId}/runs/{runId}',
  operationId: 'getAgentRun',
  tags: ['Agents'],
  summary: 'Get a durable agent run',
  description:
    "The run's current status (`pending` → `running` → `completed` | `failed` | `cancelled`) and, once it has ended, its persisted result. `responseFormat=compact` (default): the result carries `outcome` (`answered`, `partial`, `insufficient_evidence`, `needs_clarification`, `rejected`; `completed` describes execution only), deduplicated `sources`, and billing at the top level; `details` adds `evidence` (citations pointing at sources by `sourceId`), `artifacts` and the diagnostics. `responseFormat=legacy`: the previous detailed layout, citations carrying `excerpt`, `startMs`, `endMs`, `title` and `url`. 404 for an unknown run or session, or one of another account.",
  errorResponses: [...authenticatedErrors, 404, 422],
})
  .meta({ fieldCodes: { details: { invalid: 'DETAILS_INVALID' } } })
  .input(getAgentRunInput)
  .output(agentRunViewSchema)
  .query(({ ctx, input }) => {
    if (input.details !== undefined && input.responseFormat === 'legacy') throw new AppError('DETAILS_REQUIRE_COMPACT');
    return ctx.services.agents.runs.get.query({
      accountId: ctx.principal.accountId,
      sessionId: input.sessionId,
      runId: input.runId,
      responseFormat: input.responseFormat,
      details: parseDetails(input.details),
    });
  });
