import type { BillingStatus } from '@vrs/contracts';
import type { StoreScope } from '@vrs/store';

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
  /** Set when the account was deleted: its credentials (keys, sessions) no longer authenticate. */
  deletedAt?: string | null;
  plan: BillingStatus['plan'];
  subscription: BillingStatus['subscription'];
  /**
   * The counters are the source of truth for what an account may spend; they keep
   * balance = granted − spent − reserved because every update moves them together.
   */
  balance: number;
  reserved: number;
  granted: number;
  spent: number;
  createdAt: string;
}

export function createAccountsRepo(store: StoreScope) {
  const accounts = store.collection<AccountDoc>('accounts');
  return {
    createIndexes: () =>
      accounts.createIndexes([
        // Partial: ordinary accounts have no demoUser and must not collide on "missing".
        { key: { demoUser: 1 }, unique: true, name: 'demoUser_unique', partialFilterExpression: { demoUser: { $exists: true } } },
        // Partial for the same reason: demo and script-made accounts have no email.
        { key: { email: 1 }, unique: true, name: 'email_unique', partialFilterExpression: { email: { $exists: true } } },
      ]),

    insert: (account: AccountDoc) => accounts.insertOne(account),

    findById: (accountId: string) => accounts.findOne({ _id: accountId }),

    findByDemoUser: (demoUser: string) => accounts.findOne({ demoUser }),

    /** `email` must already be normalised (trimmed, lower-cased). */
    findByEmail: (email: string) => accounts.findOne({ email }),

    markEmailVerified: (accountId: string, at: string) =>
      accounts.findOneAndUpdate({ _id: accountId }, { $set: { emailVerifiedAt: at } }, { returnDocument: 'after' }),

    setPasswordHash: (accountId: string, passwordHash: string) => accounts.updateOne({ _id: accountId }, { $set: { passwordHash } }),

    setName: (accountId: string, name: string | null) =>
      accounts.findOneAndUpdate({ _id: accountId, deletedAt: null }, { $set: { name } }, { returnDocument: 'after' }),

    /**
     * Moves `amount` from balance to reserved in ONE conditional update, so concurrent holds can
     * never overdraw: the filter and the increment are applied atomically by the store.
     * Returns null when the account is missing or short.
     */
    hold: (accountId: string, amount: number) =>
      accounts.findOneAndUpdate(
        { _id: accountId, balance: { $gte: amount } },
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
