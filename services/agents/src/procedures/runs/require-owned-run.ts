import { AppError } from '@vrs/kit';
import type { AgentsDeps } from '../../agents-deps';
import type { RunDoc } from '../../repo/runs-repo';

/** Another account's run, a run of another session and an unknown one all answer 404 alike. */
export async function requireOwnedRun({ runs }: AgentsDeps, ref: { accountId: string; sessionId: string; runId: string }): Promise<RunDoc> {
  const run = await runs.findOwned(ref.accountId, ref.sessionId, ref.runId);
  if (!run) throw new AppError('AGENT_RUN_NOT_FOUND');
  return run;
}
