import type { BillingStatus, PlanId } from '@vrs/contracts';
import type { StoreScope } from '@vrs/store';

/**
 * The account's subscription. Accounts opened before subscriptions existed have only `status:
 * 'none'` and `currentPeriodEnd: null` until the renewal sweeper gives them a period.
 */
export interface SubscriptionDoc {
  /** `canceled`: the name of `cancelled` in accounts saved before ADR 0092, read as `cancelled`. */
  status: BillingStatus['subscription']['status'] | 'canceled';
  currentPeriodStart?: string | null;
  currentPeriodEnd: string | null;
  cancelAtPeriodEnd?: boolean;
}

export interface AccountDoc {
  _id: string;
  name: string | null;
  /** Set only on demo accounts: the `X-Demo-User` value the account belongs to (unique). */
  demoUser?: string;
  /** Accounts that sign in with a password (ADR 0034): the address, lower-cased (unique). */
  email?: string;
  emailVerifiedAt?: string | null;
  /** scrypt, encoded with its parameters (identity/passwords.ts). */
  passwordHash?: string;
  plan: PlanId;
  subscription: SubscriptionDoc;
  /**
   * The counters are the source of truth for what an account may spend; they keep
   * balance = granted − spent − reserved because every update moves them together.
   */
  balance: number;
  reserved: number;
  granted: number;
  spent: number;
  createdAt: string;
  /** Set when the account was deleted (ADR 0033): every credential is refused and personal fields are gone. */
  deletedAt?: string;
}

/**
 * What a deleted account keeps (ADR 0033): its id, plan, counters and dates for accounting, and its
 * demo value, which is what refuses that value afterwards. Every other field is personal and removed,
 * including fields added after this list was written.
 */
const keptWhenDeleted = new Set([
  '_id',
  'demoUser',
  'plan',
  'subscription',
  'balance',
  'reserved',
  'granted',
  'spent',
  'createdAt',
  'deletedAt',
]);

export function createAccountsRepo(store: StoreScope) {
  const accounts = store.collection<AccountDoc>('accounts');
  return {
    createIndexes: () =>
      accounts.createIndexes([
        // Partial: ordinary accounts have no demoUser and must not collide on "missing".
        { key: { demoUser: 1 }, unique: true, name: 'demoUser_unique', partialFilterExpression: { demoUser: { $exists: true } } },
        { key: { 'subscription.currentPeriodEnd': 1 }, name: 'renewal_due' },
        // Partial for the same reason: demo and script-made accounts have no email.
        { key: { email: 1 }, unique: true, name: 'email_unique', partialFilterExpression: { email: { $exists: true } } },
      ]),

    insert: (account: AccountDoc) => accounts.insertOne(account),

    findById: (accountId: string) => accounts.findOne({ _id: accountId }),

    /** The account unless it is missing or deleted: what every credential check asks (ADR 0033). */
    findActive: (accountId: string) => accounts.findOne({ _id: accountId, deletedAt: { $exists: false } }),

    findByDemoUser: (demoUser: string) => accounts.findOne({ demoUser }),

    /** `email` must already be normalised (trimmed, lower-cased). */
    findByEmail: (email: string) => accounts.findOne({ email }),

    /**
     * Both write a personal field, so both leave a deleted account alone: a link followed or a hash
     * computed while the account was being deleted must not put the field back on its anonymised row.
     * Null / false when the account is missing or deleted.
     */
    markEmailVerified: (accountId: string, at: string) =>
      accounts.findOneAndUpdate(
        { _id: accountId, deletedAt: { $exists: false } },
        { $set: { emailVerifiedAt: at } },
        { returnDocument: 'after' },
      ),

    setPasswordHash: async (accountId: string, passwordHash: string): Promise<boolean> =>
      (await accounts.updateOne({ _id: accountId, deletedAt: { $exists: false } }, { $set: { passwordHash } })).matchedCount > 0,

    setName: (accountId: string, name: string | null) =>
      accounts.findOneAndUpdate({ _id: accountId, deletedAt: null }, { $set: { name } }, { returnDocument: 'after' }),

    /**
     * Marks the account deleted and removes its personal fields: `name` becomes null, any other
     * personal field is unset (absent rather than null, so no unique index sees two deleted
     * accounts collide). Null when the account is missing or already deleted.
     */
    async markDeleted(accountId: string, deletedAt: string): Promise<AccountDoc | null> {
      const account = await accounts.findOne({ _id: accountId, deletedAt: { $exists: false } });
      if (!account) return null;
      const unset = Object.fromEntries(
        Object.keys(account)
          .filter((field) => !keptWhenDeleted.has(field) && field !== 'name')
          .map((field) => [field, '']),
      );
      return accounts.findOneAndUpdate(
        { _id: accountId, deletedAt: { $exists: false } },
        { $set: { deletedAt, name: null }, ...(Object.keys(unset).length > 0 ? { $unset: unset } : {}) },
        { returnDocument: 'after' },
      );
    },

    /**
     * Moves `amount` from balance to reserved in ONE conditional update, so concurrent holds can
     * never overdraw: the filter and the increment are applied atomically by the store.
     * Returns null when the account is missing, deleted (a replica's cached credential, ADR 0033) or short.
     */
    hold: (accountId: string, amount: number) =>
      accounts.findOneAndUpdate(
        { _id: accountId, balance: { $gte: amount }, deletedAt: { $exists: false } },
        { $inc: { balance: -amount, reserved: amount } },
        { returnDocument: 'after' },
      ),

    /** Ends a hold of `held` credits: `charged` of them become spent, the rest return to the balance. */
    release: (accountId: string, held: number, charged: number) =>
      accounts.findOneAndUpdate(
        { _id: accountId },
        { $inc: { reserved: -held, spent: charged, balance: held - charged } },
        { returnDocument: 'after' },
      ),

    /** Gives back `amount` a settle charged (its caller never learnt of the charge, ADR 0083). */
    uncharge: (accountId: string, amount: number) =>
      accounts.findOneAndUpdate({ _id: accountId }, { $inc: { spent: -amount, balance: amount } }, { returnDocument: 'after' }),

    /**
     * Accounts whose period has ended by `now`, longest ended first, then accounts that have no
     * period yet (opened before subscriptions); both through the renewal index.
     */
    dueForRenewal: async (now: string, limit: number) => {
      const ended = await accounts.find(
        { 'subscription.currentPeriodEnd': { $lte: now } },
        { sort: { 'subscription.currentPeriodEnd': 1 }, limit },
      );
      if (ended.length === limit) return ended;
      return [...ended, ...(await accounts.find({ 'subscription.currentPeriodEnd': null }, { limit: limit - ended.length }))];
    },

    /**
     * Sets plan and subscription only while the period still ends at `periodEnd`: of concurrent
     * renewals of one period exactly one matches; the others see the period already moved on.
     */
    replaceSubscription: (accountId: string, periodEnd: string | null, plan: PlanId, subscription: Required<SubscriptionDoc>) =>
      accounts.findOneAndUpdate(
        { _id: accountId, 'subscription.currentPeriodEnd': periodEnd },
        { $set: { plan, subscription } },
        { returnDocument: 'after' },
      ),

    grant: (accountId: string, amount: number) =>
      accounts.findOneAndUpdate({ _id: accountId }, { $inc: { balance: amount, granted: amount } }, { returnDocument: 'after' }),

    /** Charges `amount` straight from the balance (a settle that came after its hold expired); null when short. */
    charge: (accountId: string, amount: number) =>
      accounts.findOneAndUpdate(
        { _id: accountId, balance: { $gte: amount } },
        { $inc: { balance: -amount, spent: amount } },
        { returnDocument: 'after' },
      ),
  };
}

export type AccountsRepo = ReturnType<typeof createAccountsRepo>;
