import { deleteInBatches, DuplicateKeyError, type Store } from '@vrs/store';

export interface SessionDoc {
  _id: string;
  accountId: string;
  /** Turns admitted so far: the next run is turn `turnCount + 1`. */
  turnCount: number;
  /** The run that holds the session (pending or running); null when none does. */
  activeRunId: string | null;
  /** The session's user messages, oldest first, kept short: the context of its next run. */
  recentMessages: string[];
  createdAt: string;
  updatedAt: string;
}

/** Messages of earlier turns a run sees. */
export const contextTurns = 3;

export type SessionClaim =
  | { kind: 'claimed'; session: SessionDoc; turn: number; context: string[] }
  | { kind: 'unknown' }
  | { kind: 'busy'; activeRunId: string; updatedAt: string };

export function createSessionsRepo(store: Store) {
  const sessions = store.collection<SessionDoc>('agent_sessions');
  /** A claim that lost: the session is someone else's (or gone), or held by the run it names. */
  const heldBy = (existing: SessionDoc | null, accountId: string): SessionClaim =>
    !existing || existing.accountId !== accountId
      ? { kind: 'unknown' }
      : { kind: 'busy', activeRunId: existing.activeRunId ?? '', updatedAt: existing.updatedAt };

  return {
    ensureIndexes: () => sessions.createIndexes([{ key: { accountId: 1 }, name: 'account' }]),

    /** Every session of a deleted account (ADR 0033). */
    deleteAllOfAccount: (accountId: string): Promise<number> => deleteInBatches(sessions, { accountId }),

    findOwned: (accountId: string, sessionId: string) => sessions.findOne({ _id: sessionId, accountId }),

    /**
     * Takes the session for `runId` as its next turn: one conditional update (no active run), so two
     * admissions at once cannot both take it. A new session is opened by this claim.
     */
    async claim(accountId: string, sessionId: string, runId: string, message: string, isNew: boolean, at: string): Promise<SessionClaim> {
      if (isNew) {
        const session: SessionDoc = {
          _id: sessionId,
          accountId,
          turnCount: 1,
          activeRunId: runId,
          recentMessages: [message.slice(0, 1000)],
          createdAt: at,
          updatedAt: at,
        };
        try {
          await sessions.insertOne(session);
          return { kind: 'claimed', session, turn: 1, context: [] };
        } catch (error) {
          if (!(error instanceof DuplicateKeyError)) throw error;
          return heldBy(await sessions.findOne({ _id: sessionId }), accountId);
        }
      }
      const current = await sessions.findOne({ _id: sessionId, accountId });
      if (!current) return { kind: 'unknown' };
      if (current.activeRunId !== null) return { kind: 'busy', activeRunId: current.activeRunId, updatedAt: current.updatedAt };
      const turn = current.turnCount + 1;
      // Compare-and-set on the turn count as well: of two admissions reading the same state, one wins.
      const taken = await sessions.updateOne(
        { _id: sessionId, accountId, activeRunId: null, turnCount: current.turnCount },
        {
          $set: {
            activeRunId: runId,
            turnCount: turn,
            recentMessages: [...current.recentMessages, message.slice(0, 1000)].slice(-contextTurns),
            updatedAt: at,
          },
        },
      );
      if (taken.modifiedCount === 1)
        return { kind: 'claimed', session: current, turn, context: current.recentMessages.slice(-contextTurns) };
      return heldBy(await sessions.findOne({ _id: sessionId, accountId }), accountId);
    },

    /** Frees the session once its run has ended (only if that run still holds it). */
    release: (sessionId: string, runId: string, at: string) =>
      sessions.updateOne({ _id: sessionId, activeRunId: runId }, { $set: { activeRunId: null, updatedAt: at } }),
  };
}

export type SessionsRepo = ReturnType<typeof createSessionsRepo>;
