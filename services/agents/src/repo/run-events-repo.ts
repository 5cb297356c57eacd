import type { AgentRunEvent } from '@vrs/contracts';
import { deleteInBatches, type Store } from '@vrs/store';
import type { RunsRepo } from './runs-repo';

type RunEventDoc = AgentRunEvent & { _id: string; runId: string };

/** The run's history in order (status changes and steps): what the events stream replays and follows. */
export function createRunEventsRepo(store: Store, runs: RunsRepo) {
  const events = store.collection<RunEventDoc>('agent_run_events');

  return {
    ensureIndexes: () => events.createIndexes([{ key: { runId: 1, seq: 1 }, name: 'run_seq' }]),

    async append(runId: string, type: AgentRunEvent['type'], data: Record<string, unknown>, at: string): Promise<void> {
      const seq = await runs.nextEventSeq(runId);
      await events.insertOne({ _id: `${runId}:${seq}`, runId, seq, type, data, at });
    },

    /** Every event of a run being deleted with its account (ADR 0033). */
    deleteOfRun: (runId: string): Promise<number> => deleteInBatches(events, { runId }),

    async after(runId: string, afterSeq: number, limit: number): Promise<AgentRunEvent[]> {
      const docs = await events.find({ runId, seq: { $gt: afterSeq } }, { sort: { seq: 1 }, limit });
      return docs.map(({ seq, type, data, at }) => ({ seq, type, data, at }));
    },

    /** The number of the event that ended the run, once there is one. */
    async endSeq(runId: string): Promise<number | undefined> {
      const ending = await events.findOne({ runId, type: 'status', 'data.status': { $in: ['completed', 'failed', 'cancelled'] } });
      return ending?.seq;
    },
  };
}

export type RunEventsRepo = ReturnType<typeof createRunEventsRepo>;
