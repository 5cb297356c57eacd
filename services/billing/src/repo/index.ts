import type { Store, StoreScope } from '@vrs/store';
import { newId } from '@vrs/kit';
import { createAccountsRepo, type AccountDoc } from './accounts';
import { createApiKeysRepo } from './api-keys';
import { createLedgerRepo } from './ledger';
import { createReservationsRepo, type ReservationDoc } from './reservations';
import { createSessionsRepo } from './sessions';
import { createDeviceCodesRepo } from './device-codes';

export interface BillingRepoOptions {
  /** Milliseconds since the epoch; injectable so tests can move time. */
  clock?: () => number;
  /** How long a reservation holds its credits before the sweeper may return them. */
  reservationTtlMs: number;
}

export type CloseOutcome = 'settled' | 'refunded' | 'expired';

export function createBillingRepo(store: Store, options: BillingRepoOptions) {
  const clock = options.clock ?? Date.now;
  const nowIso = () => new Date(clock()).toISOString();
  /** The repositories a transaction's writes go through. */
  const scoped = (scope: StoreScope) => ({
    accounts: createAccountsRepo(scope),
    reservations: createReservationsRepo(scope),
    ledger: createLedgerRepo(scope, clock),
  });
  const { accounts, reservations, ledger } = scoped(store);
  const apiKeys = createApiKeysRepo(store);
  const sessions = createSessionsRepo(store, clock);
  const deviceCodes = createDeviceCodesRepo(store);

  return {
    accounts,
    reservations,
    ledger,
    apiKeys,
    sessions,
    deviceCodes,
    /** Milliseconds since the epoch, as every repository sees it. */
    clock,
    ping: () => store.ping(),

    createIndexes: async () => {
      await Promise.all([
        accounts.createIndexes(),
        ledger.createIndexes(),
        apiKeys.createIndexes(),
        reservations.createIndexes(),
        sessions.createIndexes(),
        deviceCodes.createIndexes(),
      ]);
    },

    /**
     * Opens a free account holding `grant` credits and records the grant in the ledger, in one
     * transaction. For a demo account the insert is the unique-index check, so a caller that loses
     * the race gets a DuplicateKeyError and writes nothing.
     */
    openAccount: (options: { name: string | null; demoUser?: string; grant: number; requestId: string }): Promise<AccountDoc> =>
      store.withTransaction(async (tx) => {
        const repo = scoped(tx);
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
          createdAt: nowIso(),
        };
        await repo.accounts.insert(account);
        // A grant of 0 changes nothing, so it leaves no ledger line.
        if (options.grant > 0) {
          await repo.ledger.append({
            accountId: account._id,
            kind: 'grant',
            amount: options.grant,
            operation: null,
            reservationId: null,
            requestId: options.requestId,
          });
        }
        return account;
      }),

    /**
     * Holds `amount` credits for an operation: the conditional hold on the account, the reservation
     * and its ledger line in one transaction, so a crash leaves all three or none. Null when the
     * account is missing or short (the hold's condition decided it; nothing was written).
     */
    reserve: (input: { accountId: string; amount: number; operation: string; requestId: string }) =>
      store.withTransaction(async (tx) => {
        const repo = scoped(tx);
        const { accountId, amount, operation, requestId } = input;
        const account = await repo.accounts.hold(accountId, amount);
        if (!account) return null;
        const now = clock();
        const reservationId = newId('res');
        await repo.reservations.insert({
          _id: reservationId,
          accountId,
          amount,
          operation,
          requestId,
          status: 'reserved',
          charged: null,
          createdAt: new Date(now).toISOString(),
          expiresAt: new Date(now + options.reservationTtlMs).toISOString(),
          closedAt: null,
        });
        await repo.ledger.append({ accountId, kind: 'reserve', amount: -amount, operation, reservationId, requestId });
        return { reservationId, balance: account.balance };
      }),

    /**
     * Settles (charging `charged`), refunds (charging 0) or expires (charging 0) a reservation
     * exactly once, in one transaction: the reserved→closed transition is conditional, so of any
     * number of concurrent or repeated calls only one moves credits and writes the ledger line; the
     * others get the reservation as that one closed it (the caller decides whether that is a replay
     * or a conflict) and the current balance.
     *
     * A settle that arrives after the sweeper expired the hold charges the balance directly when it
     * covers the amount (the operation did run); otherwise the reservation stays expired (charged 0).
     */
    closeReservation: (reservation: ReservationDoc, outcome: CloseOutcome, charged: number) =>
      store.withTransaction(async (tx) => {
        const repo = scoped(tx);
        const { _id: reservationId, accountId, amount: held, operation, requestId } = reservation;
        const closedAt = nowIso();
        const closed = await repo.reservations.close(reservationId, 'reserved', outcome, charged, closedAt);
        if (closed) {
          const account = await repo.accounts.release(accountId, held, charged);
          // Accounts are never deleted, so a reservation always has its account.
          if (!account) throw new Error(`account ${accountId} of reservation ${reservationId} is missing`);
          await repo.ledger.append({
            accountId,
            kind: outcome === 'settled' ? 'settle' : 'refund',
            amount: held - charged,
            operation,
            reservationId,
            requestId,
          });
          return { reservation: closed, balance: account.balance };
        }
        const current = await repo.reservations.findById(reservationId);
        if (!current) throw new Error(`reservation ${reservationId} is missing`);
        if (outcome === 'settled' && current.status === 'expired' && charged > 0) {
          const charge = await repo.accounts.charge(accountId, charged);
          if (charge) {
            // The transaction keeps the reservation as read: it is still expired here.
            const late = await repo.reservations.close(reservationId, 'expired', 'settled', charged, closedAt);
            if (!late) throw new Error(`reservation ${reservationId} changed during its settle`);
            await repo.ledger.append({ accountId, kind: 'settle', amount: -charged, operation, reservationId, requestId });
            return { reservation: late, balance: charge.balance };
          }
        }
        const account = await repo.accounts.findById(accountId);
        if (!account) throw new Error(`account ${accountId} of reservation ${reservationId} is missing`);
        return { reservation: current, balance: account.balance };
      }),
  };
}

export type BillingRepo = ReturnType<typeof createBillingRepo>;
