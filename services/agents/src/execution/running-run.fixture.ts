import type { RunDoc } from '../repo/runs-repo';

/** A run as the executor holds it, started at `startedAt`: the unit tests' common fixture. */
export function runningRun(startedAt: string, fields: Partial<RunDoc> = {}): RunDoc & { startedAt: string } {
  return {
    _id: 'run-1',
    accountId: 'acct_1',
    sessionId: 's',
    userMessageId: 'u',
    agentMessageId: 'a',
    conversationTurn: 1,
    message: 'm',
    context: [],
    options: {},
    status: 'running',
    reservationId: 'res_1',
    creditBudget: 30,
    balanceAtAdmission: 100,
    settled: false,
    eventSeq: 0,
    createdAt: startedAt,
    updatedAt: startedAt,
    ...fields,
    startedAt,
  };
}
