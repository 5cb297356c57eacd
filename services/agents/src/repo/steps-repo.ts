import type { AgentToolName } from '@vrs/contracts';
import { required } from '@vrs/kit';
import { deleteInBatches, DuplicateKeyError, type Store } from '@vrs/store';

/**
 * One finished step of a run, persisted the moment it ends. `key` names it by what it asked
 * (`get_transcript:rCAS2eD-mcw`, `analyze:<videoId>`) or its place in the loop (`model:2`), so a
 * resumed run finds a call it already made instead of making (and paying for) it again.
 */
export interface StepDoc {
  _id: string;
  runId: string;
  key: string;
  kind: StepKind;
  /** The tool of a `tool_call`. */
  tool?: AgentToolName;
  /** The model that answered a model step (the primary, or the fallback when the primary failed). */
  model?: string;
  input: Record<string, unknown>;
  status: 'completed' | 'failed';
  output?: unknown;
  error?: { code: string; message: string };
  /** Credits this step cost (a failed call costs nothing). */
  credits: number;
  /** Whether the answer came from a saved version (the cached price applied). */
  cached: boolean;
  startedAt: string;
  finishedAt: string;
  elapsedMs: number;
}

export type StepKind = 'tool_call' | 'model_step' | 'transcript_analysis';

export function createStepsRepo(store: Store) {
  const steps = store.collection<StepDoc>('agent_run_steps');

  return {
    ensureIndexes: () => steps.createIndexes([{ key: { runId: 1, finishedAt: 1 }, name: 'run_in_order' }]),

    /** Inserted once per call: a second delivery recording the same call keeps the first record. */
    async record(step: Omit<StepDoc, '_id'>): Promise<StepDoc> {
      const doc = { _id: `${step.runId}|${step.key}`, ...step };
      try {
        await steps.insertOne(doc);
        return doc;
      } catch (error) {
        if (!(error instanceof DuplicateKeyError)) throw error;
        return required(await steps.findOne({ _id: doc._id }), `step ${doc._id}, whose insert its existing record refused`);
      }
    },

    /** Every step of a run being deleted with its account (ADR 0033). */
    deleteOfRun: (runId: string): Promise<number> => deleteInBatches(steps, { runId }),

    ofRun: (runId: string) => steps.find({ runId }, { sort: { finishedAt: 1, _id: 1 } }),
  };
}

export type StepsRepo = ReturnType<typeof createStepsRepo>;

/** The run's counters and charge, as its persisted steps say (the transcript analyst counts as neither a model step nor a tool call). */
export function tallyOf(steps: readonly StepDoc[]) {
  return {
    modelStepCount: steps.filter((step) => step.kind === 'model_step').length,
    toolCallCount: steps.filter((step) => step.kind === 'tool_call').length,
    creditsCharged: steps.reduce((sum, step) => sum + step.credits, 0),
  };
}
