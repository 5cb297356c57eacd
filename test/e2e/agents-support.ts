import { expect } from 'vitest';
import type { AgentsRouter } from '@vrs/agents';
import { createServiceClient } from '@vrs/kit';
import { eventually, type ApiCall } from '@vrs/testing/api-client';

/** The question every topic test asks: its search is authored in fixtures/youtube/agents. */
export const laryngealQuestion = 'How do you insert a laryngeal mask airway?';

/** The agents service's operator procedure (what `npm run agents:allow` calls). */
export function agentsOperator(url: string, internalToken: string) {
  return createServiceClient<AgentsRouter>({ mode: 'http', url, internalToken, caller: 'e2e', timeoutMs: 30_000 });
}

export async function accountOf(api: ApiCall): Promise<{ accountId: string; balance: number }> {
  const status = await api('GET', '/v1/billing');
  expect(status.status, status.text).toBe(200);
  return { accountId: status.body.accountId, balance: status.body.credits.balance };
}

export async function admit(api: ApiCall, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  const admitted = await api('POST', '/v1/agent/runs', { json: body, headers });
  expect(admitted.status, admitted.text).toBe(202);
  return admitted.body as { runId: string; sessionId: string; userMessageId: string; agentMessageId: string; conversationTurn: number };
}

export const runPathOf = (run: { sessionId: string; runId: string }) => `/v1/agent/${run.sessionId}/runs/${run.runId}`;

/** Polls the run until it has ended (completed, failed or cancelled). */
export function ended(api: ApiCall, run: { sessionId: string; runId: string }, query = '', timeoutMs = 20_000) {
  return eventually(
    async () => {
      const current = await api('GET', `${runPathOf(run)}${query}`);
      return ['completed', 'failed', 'cancelled'].includes(current.body.status) ? current.body : undefined;
    },
    { timeoutMs, intervalMs: 100, what: `run ${run.runId} to end` },
  );
}

/** Reads a whole SSE response into its events. */
export async function readEventStream(response: Response): Promise<{ id: number; event: string; data: any }[]> {
  const text = await response.text();
  return text
    .split('\n\n')
    .filter((block) => block.trim() && !block.startsWith(':'))
    .map((block) => {
      const fields = Object.fromEntries(
        block.split('\n').map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trim()]),
      );
      return { id: Number(fields.id), event: fields.event!, data: JSON.parse(fields.data!) };
    });
}
