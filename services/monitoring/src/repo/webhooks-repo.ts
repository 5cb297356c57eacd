import type { Webhook } from '@vrs/contracts';
import { newId } from '@vrs/kit';
import { deleteInBatches, findPage, type PageRequest, type Store } from '@vrs/store';

export interface WebhookDoc extends Omit<Webhook, 'id'> {
  _id: string;
  accountId: string;
  /** The Standard Webhooks signing secret (`whsec_` + base64). */
  secret: string;
}

export function createWebhooksRepo(store: Store) {
  const webhooks = store.collection<WebhookDoc>('webhooks');
  return {
    ensureIndexes: () => webhooks.createIndexes([{ key: { accountId: 1, createdAt: -1, _id: -1 }, name: 'account_newest_first' }]),

    async create(fields: Pick<WebhookDoc, 'accountId' | 'url' | 'description' | 'secret' | 'createdAt'>): Promise<WebhookDoc> {
      const webhook: WebhookDoc = { _id: newId('whk'), ...fields, enabled: true, disabledReason: null, consecutiveFailures: 0 };
      await webhooks.insertOne(webhook);
      return webhook;
    },

    findOwned: (accountId: string, webhookId: string) => webhooks.findOne({ _id: webhookId, accountId }),
    findById: (webhookId: string) => webhooks.findOne({ _id: webhookId }),
    /** Every webhook of a deleted account, its signing secret with it (ADR 0033). */
    deleteAllOfAccount: (accountId: string): Promise<number> => deleteInBatches(webhooks, { accountId }),

    enabledOf: (accountId: string) => webhooks.find({ accountId, enabled: true }),

    /** Newest first (ADR 0020). Secrets stay in the documents; `toWebhook` drops them. */
    listOwned: (accountId: string, page: PageRequest) => findPage(webhooks, 'webhooks', { accountId }, page),

    async deleteOwned(accountId: string, webhookId: string): Promise<boolean> {
      return (await webhooks.deleteOne({ _id: webhookId, accountId })).deletedCount === 1;
    },

    succeeded: (webhookId: string) => webhooks.updateOne({ _id: webhookId }, { $set: { consecutiveFailures: 0 } }),

    /** Counts a failed attempt; answers the webhook as it is now. */
    failed: (webhookId: string) => webhooks.findOneAndUpdate({ _id: webhookId }, { $inc: { consecutiveFailures: 1 } }),

    /** True only for the call that switched it off, so its owner is told once. */
    async disable(webhookId: string, reason: string): Promise<boolean> {
      const result = await webhooks.updateOne({ _id: webhookId, enabled: true }, { $set: { enabled: false, disabledReason: reason } });
      return result.modifiedCount === 1;
    },
  };
}

export type WebhooksRepo = ReturnType<typeof createWebhooksRepo>;

export function toWebhook({ _id, accountId: _owner, secret: _secret, ...webhook }: WebhookDoc): Webhook {
  return { id: _id, ...webhook };
}
