import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '@vrs/testing/temp-dir';
import { billingAccountDeleted, type AgentRunStatus, type EventData, type EventEnvelope } from '@vrs/contracts';
import { createLogger } from '@vrs/kit';
import { openStore, type Store } from '@vrs/store';
import { createAccessRepo } from '../repo/access-repo';
import { createRunEventsRepo } from '../repo/run-events-repo';
import { createRunsRepo } from '../repo/runs-repo';
import { createSessionsRepo } from '../repo/sessions-repo';
import { createStepsRepo } from '../repo/steps-repo';
import { createDeleteAccountDataHandler } from './delete-account-data';
import { eventRequestContext } from '@vrs/bus';

const collections = ['agent_sessions', 'agent_runs', 'agent_run_steps', 'agent_run_events', 'agent_allowed_accounts'];

function eventOf(data: EventData<typeof billingAccountDeleted>): EventEnvelope<EventData<typeof billingAccountDeleted>> {
  return { id: randomUUID(), type: billingAccountDeleted.type, occurredAt: new Date().toISOString(), data };
}

describe('agents: deleting an account', () => {
  let store: Store;
  beforeEach(async () => {
    store = await openStore({ service: 'agents', dataDir: makeTempDir('agents-deletion-') });
  });
  afterEach(() => store.close());

  it('cancels running runs, then removes sessions, runs, steps, events and the allowlist entry of that account only', async () => {
    const runs = createRunsRepo(store);
    const deps = {
      runs,
      steps: createStepsRepo(store),
      runEvents: createRunEventsRepo(store, runs),
      sessions: createSessionsRepo(store),
      access: createAccessRepo(store),
      logger: createLogger('agents-deletion-test'),
      now: Date.now,
    };
    const at = new Date().toISOString();
    /** A session with a run in `status`, one step and one event, for `accountId`. */
    async function seed(accountId: string, status: AgentRunStatus) {
      const sessionId = randomUUID();
      const runId = `run_${randomUUID()}`;
      await deps.sessions.claim(accountId, sessionId, runId, 'what is trending?', true, at);
      await runs.insert({
        _id: runId,
        accountId,
        sessionId,
        userMessageId: randomUUID(),
        agentMessageId: randomUUID(),
        conversationTurn: 1,
        message: 'what is trending?',
        context: [],
        options: {},
        status,
        reservationId: `res_${randomUUID()}`,
        creditBudget: 10,
        balanceAtAdmission: 100,
        settled: false,
        eventSeq: 0,
        createdAt: at,
        updatedAt: at,
      });
      await deps.steps.record({
        runId,
        key: 'search:x',
        kind: 'tool_call',
        tool: 'search_videos' as never,
        input: { q: 'x' },
        status: 'completed',
        credits: 2,
        cached: false,
        startedAt: at,
        finishedAt: at,
        elapsedMs: 1,
      });
      await deps.runEvents.append(runId, 'status', { status }, at);
      await deps.access.set(accountId, true, at);
      return runId;
    }
    const mentions = async (accountId: string) => {
      const found: Record<string, number> = {};
      for (const name of collections) {
        const count = (await store.collection(name).find({})).filter((doc) => JSON.stringify(doc).includes(accountId)).length;
        if (count > 0) found[name] = count;
      }
      return found;
    };
    const running = await seed('acct_deleted', 'running');
    await seed('acct_deleted', 'completed');
    const keptRun = await seed('acct_kept', 'running');
    // Steps and events name the run, not the account: counted by run.
    const byRun = async (runId: string) =>
      (await store.collection('agent_run_steps').countDocuments({ runId })) +
      (await store.collection('agent_run_events').countDocuments({ runId }));
    expect(Object.keys(await mentions('acct_deleted'))).toEqual(['agent_sessions', 'agent_runs', 'agent_allowed_accounts']);
    expect(await byRun(running)).toBe(2);

    // The executor's view: the run was ended by someone else (a cancel), so it stops.
    let endedMeanwhile: unknown;
    const handle = createDeleteAccountDataHandler({
      ...deps,
      runs: {
        ...runs,
        end: async (...args: Parameters<typeof runs.end>) => {
          endedMeanwhile = await runs.end(...args);
          return endedMeanwhile as Awaited<ReturnType<typeof runs.end>>;
        },
      },
    });
    const event = eventOf({ accountId: 'acct_deleted', deletedAt: at });
    await handle(event, eventRequestContext(event));
    await handle(event, eventRequestContext(event));

    expect(endedMeanwhile).toMatchObject({ _id: running, status: 'cancelled' });
    expect(await mentions('acct_deleted')).toEqual({});
    expect(await byRun(running)).toBe(0);
    expect(await mentions('acct_kept')).toEqual({ agent_sessions: 1, agent_runs: 1, agent_allowed_accounts: 1 });
    expect(await byRun(keptRun)).toBe(2);
    expect(await runs.findById(keptRun)).toMatchObject({ status: 'running' });
  });
});
