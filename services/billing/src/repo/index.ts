import type { Store } from '@vrs/store';
import { createAccountsRepo, type AccountDoc } from './accounts';
import { createApiKeysRepo } from './api-keys';
import { newId } from '@vrs/kit';
import { createLedgerRepo } from './ledger';
import { createReservationsRepo, type ReservationDoc } from './reservations';

export function createBillingRepo(store: Store) {
  const accounts = createAccountsRepo(store);
  const reservations = createReservationsRepo(store);
  const ledger = createLedgerRepo(store);
  const apiKeys = createApiKeysRepo(store);

  return {
    accounts,
    reservations,
    ledger,
    apiKeys,
    ping: () => store.ping(),

    createIndexes: async () => {
      await Promise.all([accounts.createIndexes(), ledger.createIndexes(), apiKeys.createIndexes()]);
    },

    /**
     * Opens a free account holding `grant` credits and records the grant in the ledger. The account
     * insert comes first: for a demo account it is the unique-index check, so a caller that loses
     * the race gets a DuplicateKeyError before it could write a second grant.
     */
    openAccount: async (options: { name: string | null; demoUser?: string; grant: number; requestId: string }): Promise<AccountDoc> => {
      const account: AccountDoc = {
        _id: newId('acct'),
        name: options.name,
        ...(options.demoUser === undefined ? {} : { demoUser: options.demoUser }),
        plan: 'free',
        subscription: { status: 'none', currentPeriodEnd: null },
        balance: options.grant,
        reserved: 0,
        granted: options.grant,
        spent: 0,
        createdAt: new Date().toISOString(),
      };
      await accounts.insert(account);
      // A grant of 0 changes nothing, so it leaves no ledger line.
      if (options.grant > 0) {
        await ledger.append({
          accountId: account._id,
          kind: 'grant',
          amount: options.grant,
          operation: null,
          reservationId: null,
          requestId: options.requestId,
        });
      }
      return account;
    },

    /**
     * Settles (charging `charged`) or refunds (charging 0) a reservation exactly once. The
     * reserved→closed transition is conditional, so of any number of concurrent or repeated calls
     * only one moves credits and writes the ledger line; the others get the reservation as that
     * one closed it (the caller decides whether that is a replay or a conflict) and the current balance.
     */
    closeReservation: async (reservation: ReservationDoc, outcome: 'settled' | 'refunded', charged: number) => {
      const { _id: reservationId, accountId, amount: held, operation, requestId } = reservation;
      const closed = await reservations.close(reservationId, outcome, charged);
      if (closed) {
        // Independent writes: issued together, their disk syncs overlap instead of queuing.
        const [account] = await Promise.all([
          accounts.release(accountId, held, charged),
          ledger.append({
            accountId,
            kind: outcome === 'settled' ? 'settle' : 'refund',
            amount: held - charged,
            operation,
            reservationId,
            requestId,
          }),
        ]);
        // Accounts are never deleted, so a reservation always has its account.
        if (!account) throw new Error(`account ${accountId} of reservation ${reservationId} is missing`);
        return { reservation: closed, balance: account.balance };
      }
      const account = await accounts.findById(accountId);
      if (!account) throw new Error(`account ${accountId} of reservation ${reservationId} is missing`);
      const current = await reservations.findById(reservationId);
      if (!current) throw new Error(`reservation ${reservationId} is missing`);
      return { reservation: current, balance: account.balance };
    },
  };
}

export type BillingRepo = ReturnType<typeof createBillingRepo>;
