import { isoInstant, type WebhookDelivery } from '@vrs/contracts';
import { deleteInBatches, findPage, type PageRequest, type Store, type StoreScope } from '@vrs/store';

export interface DeliveryDoc extends Omit<WebhookDelivery, 'id' | 'nextAttemptAt'> {
  _id: string;
  /** Epoch ms, which the lease query compares; answered as an ISO string. */
  nextAttemptAt: number | null;
  accountId: string;
  /** The JSON body sent on every attempt (the same bytes, so the signature covers the same content). */
  payload: string;
  leaseUntil: number;
  leaseToken: string | null;
}

/** Webhook deliveries; pending ones are claimed with a lease like due checks (ADR 0028). */
export function createDeliveriesRepo(store: Store) {
  const deliveries = store.collection<DeliveryDoc>('webhook_deliveries');
  return {
    ensureIndexes: () =>
      deliveries.createIndexes([
        // Named anew: a name cannot change its key (the old `webhook_newest_first` lacked the owner).
        { key: { webhookId: 1, accountId: 1, createdAt: -1, _id: -1 }, name: 'webhook_owner_newest_first' },
        { key: { status: 1, nextAttemptAt: 1 }, name: 'due' },
      ]),

    insertMany: (docs: DeliveryDoc[], tx: StoreScope) =>
      docs.length === 0 ? Promise.resolve() : tx.collection<DeliveryDoc>('webhook_deliveries').insertMany(docs),

    /** A webhook's deliveries, newest first (ADR 0020); the owner's filter keeps a cursor to the caller's own. */
    listOwned: (accountId: string, webhookId: string, page: PageRequest) =>
      findPage(deliveries, 'webhook_deliveries', { accountId, webhookId }, page),

    claimDue: (now: number, leaseMs: number, leaseToken: string) =>
      deliveries.findOneAndUpdate(
        { status: 'pending', nextAttemptAt: { $lte: now }, leaseUntil: { $lte: now } },
        { $set: { leaseUntil: now + leaseMs, leaseToken } },
        { sort: { nextAttemptAt: 1 } },
      ),

    async finish(deliveryId: string, leaseToken: string, set: Partial<DeliveryDoc>): Promise<boolean> {
      const result = await deliveries.updateOne({ _id: deliveryId, leaseToken }, { $set: { ...set, leaseUntil: 0, leaseToken: null } });
      return result.matchedCount === 1;
    },

    deleteForWebhook: (webhookId: string) => deliveries.deleteMany({ webhookId }),

    /** Every delivery of a deleted account, pending ones included (ADR 0033). */
    deleteAllOfAccount: (accountId: string): Promise<number> => deleteInBatches(deliveries, { accountId }),
  };
}

export type DeliveriesRepo = ReturnType<typeof createDeliveriesRepo>;

export function toDelivery({
  _id,
  accountId: _owner,
  payload: _payload,
  leaseUntil: _lease,
  leaseToken: _token,
  nextAttemptAt,
  ...delivery
}: DeliveryDoc): WebhookDelivery {
  return { id: _id, nextAttemptAt: isoInstant(nextAttemptAt), ...delivery };
}
