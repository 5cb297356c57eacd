import type { DeviceCodeStatus, Scope } from '@vrs/contracts';
import { deleteInBatches, type Store } from '@vrs/store';

/** One RFC 8628 device authorization (ADR 0036). Neither code is stored, only its hash. */
export interface DeviceCodeDoc {
  _id: string;
  /** sha256 (hex) of the device code the client polls with. */
  deviceCodeHash: string;
  /** sha256 (hex) of the canonical user code (8 letters, no dash). */
  userCodeHash: string;
  status: DeviceCodeStatus;
  clientName: string | null;
  requestedScopes: Scope[];
  /** Set on approval: a non-empty subset of `requestedScopes`. */
  approvedScopes: Scope[] | null;
  /** Set on approval or denial: the account that decided. */
  accountId: string | null;
  /** Seconds between polls; slow_down raises it by 5 for this and every later poll. */
  intervalSeconds: number;
  lastPolledAt: string | null;
  createdAt: string;
  /** When both codes stop working. */
  expiresAt: string;
  /** When the record may be deleted: a while after expiry, so late polls still hear expired_token. */
  purgeAt: string;
  decidedAt: string | null;
  /** The CLI session the code was exchanged for. */
  sessionId: string | null;
  ip: string | null;
  /** Started at the OAuth endpoint (ADR 0095): the client that alone may exchange it. */
  clientId?: string | null;
}

export function createDeviceCodesRepo(store: Store) {
  const codes = store.collection<DeviceCodeDoc>('device_codes');
  return {
    /** Every row of a deleted account (ADR 0033), a batch at a time. */
    deleteAllOfAccount: (accountId: string) => deleteInBatches(codes, { accountId }),

    createIndexes: () =>
      codes.createIndexes([
        { key: { deviceCodeHash: 1 }, unique: true, name: 'deviceCodeHash_unique' },
        { key: { userCodeHash: 1 }, unique: true, name: 'userCodeHash_unique' },
        { key: { purgeAt: 1 }, name: 'purgeAt_1' },
      ]),

    insert: (doc: DeviceCodeDoc) => codes.insertOne(doc),
    byDeviceCodeHash: (hash: string) => codes.findOne({ deviceCodeHash: hash }),
    byUserCodeHash: (hash: string) => codes.findOne({ userCodeHash: hash }),

    /**
     * Records a poll at `now` only if nobody polled since `seenLastPolledAt` (one conditional
     * update): of two polls racing on the same code, one wins and the other is polling too fast.
     */
    recordPoll: async (id: string, seenLastPolledAt: string | null, now: string) =>
      (await codes.updateOne({ _id: id, lastPolledAt: seenLastPolledAt }, { $set: { lastPolledAt: now } })).matchedCount === 1,

    /** slow_down: the interval grows by `stepSeconds` for this and every later poll. */
    slowDown: (id: string, stepSeconds: number, now: string) =>
      codes.findOneAndUpdate({ _id: id }, { $inc: { intervalSeconds: stepSeconds }, $set: { lastPolledAt: now } }),

    /** approved → consumed, at most once: the single exchange of a code for a session. */
    claimApproved: (id: string) => codes.findOneAndUpdate({ _id: id, status: 'approved' }, { $set: { status: 'consumed' } }),
    /** A claim whose session could not be opened goes back, so the next poll can try again. */
    unclaim: (id: string) => codes.updateOne({ _id: id, status: 'consumed', sessionId: null }, { $set: { status: 'approved' } }),
    recordSession: (id: string, sessionId: string) => codes.updateOne({ _id: id }, { $set: { sessionId } }),

    /** pending → approved or denied while still pending and unexpired; null when it was not. */
    decide: (id: string, now: string, decision: { status: 'approved' | 'denied'; accountId: string; approvedScopes: Scope[] | null }) =>
      codes.findOneAndUpdate(
        { _id: id, status: 'pending', expiresAt: { $gt: now } },
        { $set: { ...decision, decidedAt: now } },
        { returnDocument: 'after' },
      ),

    /** Deletes the records past their `purgeAt`; called as new codes are made, so the collection stays small. */
    purge: async (now: string) => (await codes.deleteMany({ purgeAt: { $lte: now } })).deletedCount,
  };
}
