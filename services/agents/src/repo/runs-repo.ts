import {
  activeAgentRunStatuses,
  type AgentArtifact,
  type AgentCitation,
  type AgentOutcome,
  type AgentRoute,
  type AgentRouteName,
  type AgentRunStatus,
  type AgentSource,
  type AgentWarning,
  type AnswerDetail,
  type ResearchBreadth,
} from '@vrs/contracts';
import type { ExtractionDiagnostic } from '@vrs/contracts';
import { findPage, type PageRequest, type Store } from '@vrs/store';

/** A citation as stored: the legacy shape plus the transcript window it was taken from (what verification checks). */
export interface StoredCitation extends AgentCitation {
  window?: { startMs: number; endMs: number };
}

export interface StoredResult {
  outcome: AgentOutcome;
  answer: string;
  intent: AgentRouteName;
  confidence: 'high' | 'medium' | 'low' | 'none';
  sources: AgentSource[];
  citations: StoredCitation[];
  artifacts: AgentArtifact[];
  warnings: AgentWarning[];
}

export interface RunDoc {
  _id: string;
  accountId: string;
  sessionId: string;
  userMessageId: string;
  agentMessageId: string;
  conversationTurn: number;
  message: string;
  /** The session's earlier user messages, oldest first (at most a few): the run's conversation context. */
  context: string[];
  options: { researchBreadth?: ResearchBreadth; answerDetail?: AnswerDetail; useStoryboard?: boolean };
  projectId?: string;
  status: AgentRunStatus;
  route?: AgentRoute;
  result?: StoredResult;
  error?: string;
  /** One item per storyboard attempt (ADR 0026), at most a bounded number; `Truncated` when some were left out. */
  extractionDiagnostics?: ExtractionDiagnostic[];
  extractionDiagnosticsTruncated?: boolean;
  /** The credit hold taken at admission, and the balance beside it then. */
  reservationId: string;
  creditBudget: number;
  balanceAtAdmission: number;
  /** Fixed when the run ends; the reservation is settled for `creditsCharged` (then `settled`). */
  billing?: { creditsCharged: number; creditsRemaining: number };
  settled: boolean;
  /** Hash of the admitted request, when it came with an Idempotency-Key (tells a retry from another request). */
  fingerprint?: string;
  eventSeq: number;
  createdAt: string;
  updatedAt: string;
  startedAt?: string;
  endedAt?: string;
}

export function createRunsRepo(store: Store) {
  const runs = store.collection<RunDoc>('agent_runs');

  return {
    /** Runs in `status` (the metrics' agent runs by status). */
    countWithStatus: (status: AgentRunStatus) => runs.countDocuments({ status }),

    ensureIndexes: () =>
      runs.createIndexes([
        { key: { sessionId: 1, createdAt: -1, _id: -1 }, name: 'session_newest_first' },
        { key: { accountId: 1, status: 1 }, name: 'account_status' },
        // Counted by status for the metrics at each scrape.
        { key: { status: 1 }, name: 'status' },
      ]),

    insert: (run: RunDoc) => runs.insertOne(run),

    findById: (runId: string) => runs.findOne({ _id: runId }),

    /** Found only for its owner and in its session: anything else looks unknown. */
    findOwned: (accountId: string, sessionId: string, runId: string) => runs.findOne({ _id: runId, accountId, sessionId }),

    /** Newest first by (createdAt, _id), paged like every list (ADR 0020); the session is the caller's (checked before). */
    listInSession: (sessionId: string, page: PageRequest) => findPage(runs, 'agentRuns', { sessionId }, page),

    /** pending → running; false when the run is no longer pending (already running, or ended). */
    async markRunning(runId: string, at: string): Promise<boolean> {
      const result = await runs.updateOne({ _id: runId, status: 'pending' }, { $set: { status: 'running', startedAt: at, updatedAt: at } });
      return result.modifiedCount === 1;
    },

    setRoute: (runId: string, route: AgentRoute, at: string) => runs.updateOne({ _id: runId }, { $set: { route, updatedAt: at } }),

    /** Replaces the run's storyboard diagnostics: derived from its persisted steps, so a resumed run writes the same items. */
    setExtractionDiagnostics: (runId: string, items: ExtractionDiagnostic[], truncated: boolean, at: string) =>
      runs.updateOne({ _id: runId }, { $set: { extractionDiagnostics: items, extractionDiagnosticsTruncated: truncated, updatedAt: at } }),

    /**
     * Moves an active run to its final state, once: the conditional update is the decision, so a
     * cancel and the executor finishing at the same moment cannot both win.
     */
    async end(
      runId: string,
      ending: { status: 'completed' | 'failed' | 'cancelled'; result?: StoredResult; error?: string; creditsCharged: number },
      at: string,
    ): Promise<RunDoc | null> {
      return runs.findOneAndUpdate(
        { _id: runId, status: { $in: [...activeAgentRunStatuses] } },
        {
          $set: {
            status: ending.status,
            ...(ending.result ? { result: ending.result } : {}),
            ...(ending.error ? { error: ending.error } : {}),
            billing: { creditsCharged: ending.creditsCharged, creditsRemaining: 0 },
            endedAt: at,
            updatedAt: at,
          },
        },
      );
    },

    /** Up to `limit` runs of the account, in `statuses` when given: what an account's deletion walks (ADR 0033). */
    ofAccount: (accountId: string, limit: number, statuses?: readonly AgentRunStatus[]) =>
      runs.find(statuses ? { accountId, status: { $in: [...statuses] } } : { accountId }, { limit }),

    deleteById: (runId: string) => runs.deleteOne({ _id: runId }),

    markSettled: (runId: string, creditsRemaining: number) =>
      runs.updateOne({ _id: runId }, { $set: { settled: true, 'billing.creditsRemaining': creditsRemaining } }),

    /** The next event number of the run (atomic, so the executor and a cancel never take the same one). */
    async nextEventSeq(runId: string): Promise<number> {
      const run = await runs.findOneAndUpdate({ _id: runId }, { $inc: { eventSeq: 1 } });
      if (!run) throw new Error(`run ${runId} vanished while recording an event`);
      return run.eventSeq;
    },
  };
}

export type RunsRepo = ReturnType<typeof createRunsRepo>;
