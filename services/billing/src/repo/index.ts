import { billingAccountDeleted } from '@vrs/contracts';
import { recordOutboxEvent } from '@vrs/bus';
import type { Store, StoreScope } from '@vrs/store';
import { newId } from '@vrs/kit';
import {
  currentStateName,
  defaultPlanId,
  planCatalogue,
  type PlanCatalogue,
  type PlanId,
  type SettableSubscriptionStatus,
} from '@vrs/contracts';
import { addMonthsClamped, periodContaining } from '../subscriptions/periods';
import { createAccountsRepo, type AccountDoc, type SubscriptionDoc } from './accounts';
import { createApiKeysRepo } from './api-keys';
import { createLedgerRepo } from './ledger';
import { createReservationsRepo, type ReservationDoc } from './reservations';
import { topUp } from './top-up';
import { createSessionsRepo } from './sessions';
import { createEmailLinksRepo } from './email-links';
import { createDeviceCodesRepo } from './device-codes';

export interface BillingRepoOptions {
  /** Milliseconds since the epoch; injectable so tests can move time. */
  clock?: () => number;
  /** How long a reservation holds its credits before the sweeper may return them. */
  reservationTtlMs: number;
  /** What each plan grants per period; the built-in catalogue when left out. */
  plans?: PlanCatalogue;
}

/** What a renewal did to one account: `skipped` when another renewal (or a plan change) got there first. */
export type RenewalOutcome =
  | { kind: 'renewed'; plan: PlanId; status: SubscriptionDoc['status']; granted: number | null }
  | { kind: 'skipped' };

export type CloseOutcome = 'settled' | 'refunded' | 'expired';

export function createBillingRepo(store: Store, options: BillingRepoOptions) {
  const clock = options.clock ?? Date.now;
  const plans = options.plans ?? planCatalogue();
  const nowIso = () => new Date(clock()).toISOString();
  /** The repositories a transaction's writes go through. */
  const scoped = (scope: StoreScope) => ({
    accounts: createAccountsRepo(scope),
    apiKeys: createApiKeysRepo(scope, clock),
    reservations: createReservationsRepo(scope),
    ledger: createLedgerRepo(scope, clock),
  });
  const { accounts, reservations, ledger, apiKeys } = scoped(store);
  const sessions = createSessionsRepo(store, clock);
  const emailLinks = createEmailLinksRepo(store, clock);
  const deviceCodes = createDeviceCodesRepo(store);

  return {
    accounts,
    reservations,
    ledger,
    apiKeys,
    sessions,
    emailLinks,
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
        emailLinks.createIndexes(),
        deviceCodes.createIndexes(),
      ]);
    },

    /**
     * Moves an account whose period has ended into the period that contains now, in one
     * transaction with its renewal grant (ADR 0032): the period change is conditional on the old
     * end, so concurrent renewals (several sweepers, replicas) renew it once, and the grant line has
     * a per-period id, so even a repeated transaction cannot grant the period twice. A canceled
     * plan (or one set to cancel at the period end) falls back to free; past_due renews the period
     * without a grant. An account opened before subscriptions gets its current period, without a
     * grant (it had its starting credits).
     */
    renew: (accountId: string): Promise<RenewalOutcome> =>
      store.withTransaction(async (tx) => {
        const repo = scoped(tx);
        const now = clock();
        const account = await repo.accounts.findById(accountId);
        if (!account) return { kind: 'skipped' };
        const { currentPeriodEnd, status, cancelAtPeriodEnd } = account.subscription;
        const legacy = currentPeriodEnd === null;
        if (!legacy && Date.parse(currentPeriodEnd) > now) return { kind: 'skipped' };
        const period = periodContaining(Date.parse(account.createdAt), now);
        const fallsBack = currentStateName(status) === 'cancelled' || cancelAtPeriodEnd === true;
        const plan = fallsBack ? defaultPlanId : account.plan;
        const nextStatus = legacy || fallsBack ? 'active' : currentStateName(status);
        const renewed = await repo.accounts.replaceSubscription(accountId, currentPeriodEnd, plan, {
          status: nextStatus,
          currentPeriodStart: new Date(period.start).toISOString(),
          currentPeriodEnd: new Date(period.end).toISOString(),
          cancelAtPeriodEnd: false,
        });
        if (!renewed) return { kind: 'skipped' };
        const grants = nextStatus === 'active' && !legacy;
        const granted = grants
          ? await topUp(repo, renewed, renewed.subscription.currentPeriodStart!, plans[plan].monthlyCredits, { kind: 'renewal' })
          : null;
        return { kind: 'renewed', plan, status: nextStatus, granted };
      }),

    /**
     * The operator's plan change (ADR 0032), in one transaction. `active` after `past_due` grants
     * the current period's renewal if it was skipped; an upgrade tops the balance up to the new
     * plan's allowance now (once per plan and period); a downgrade takes nothing away. `cancelled`
     * keeps the plan until the period ends. An account without a period gets its current one.
     * Null when the account does not exist.
     */
    changePlan: (accountId: string, plan: PlanId, status: SettableSubscriptionStatus) =>
      store.withTransaction(async (tx) => {
        const repo = scoped(tx);
        const account = await repo.accounts.findById(accountId);
        if (!account) return null;
        const before = account.subscription;
        const hasPeriod = before.currentPeriodStart && before.currentPeriodEnd;
        const period = periodContaining(Date.parse(account.createdAt), clock());
        const currentPeriodStart = hasPeriod ? before.currentPeriodStart! : new Date(period.start).toISOString();
        const changed = await repo.accounts.replaceSubscription(accountId, before.currentPeriodEnd, plan, {
          status,
          currentPeriodStart,
          currentPeriodEnd: hasPeriod ? before.currentPeriodEnd! : new Date(period.end).toISOString(),
          cancelAtPeriodEnd: status === 'cancelled',
        });
        // Inside the transaction nothing else can move the period between the read and this update.
        if (!changed) throw new Error(`account ${accountId} changed during its plan change`);
        let current = changed;
        if (status === 'active' && before.status === 'past_due') {
          await topUp(repo, current, currentPeriodStart, plans[plan].monthlyCredits, { kind: 'renewal' });
          current = (await repo.accounts.findById(accountId)) ?? current;
        }
        if (status === 'active' && plans[plan].monthlyCredits > plans[account.plan].monthlyCredits) {
          await topUp(repo, current, currentPeriodStart, plans[plan].monthlyCredits, { kind: 'upgrade', plan });
          current = (await repo.accounts.findById(accountId)) ?? current;
        }
        return current;
      }),

    /**
     * Opens a free account holding `grant` credits and records the grant in the ledger, in one
     * transaction. For a demo account the insert is the unique-index check, so a caller that loses
     * the race gets a DuplicateKeyError and writes nothing.
     */
    openAccount: (options: {
      name: string | null;
      demoUser?: string;
      /** An email sign-up: the normalised address (unique) and the password's hash; unverified until its link is followed. */
      credentials?: { email: string; passwordHash: string };
      grant: number;
      requestId: string;
    }): Promise<AccountDoc> =>
      store.withTransaction(async (tx) => {
        const repo = scoped(tx);
        const createdAt = nowIso();
        const account: AccountDoc = {
          _id: newId('acct'),
          name: options.name,
          ...(options.demoUser === undefined ? {} : { demoUser: options.demoUser }),
          ...(options.credentials ? { ...options.credentials, emailVerifiedAt: null } : {}),
          plan: defaultPlanId,
          subscription: {
            status: 'active',
            currentPeriodStart: createdAt,
            currentPeriodEnd: new Date(addMonthsClamped(Date.parse(createdAt), 1)).toISOString(),
            cancelAtPeriodEnd: false,
          },
          balance: options.grant,
          reserved: 0,
          granted: options.grant,
          spent: 0,
          createdAt,
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
     * Deletes an account in ONE transaction (ADR 0033): marks it deleted with its personal fields
     * removed, revokes every API key, and records `billing.account.deleted` in the outbox, so the
     * event is published once the deletion commits and never lost. Null when there is no such
     * account or it was deleted already (a second deletion changes nothing).
     */
    deleteAccount: (accountId: string): Promise<{ accountId: string; deletedAt: string; keysRevoked: number } | null> =>
      store.withTransaction(async (tx) => {
        const repo = scoped(tx);
        const deletedAt = nowIso();
        const account = await repo.accounts.markDeleted(accountId, deletedAt);
        if (!account) return null;
        const keysRevoked = await repo.apiKeys.revokeAllOfAccount(accountId, deletedAt);
        // The account's id names the event: a deletion happens once, so one id per account is enough.
        await recordOutboxEvent(tx, billingAccountDeleted, { accountId, deletedAt }, `account-deleted-${accountId}`);
        return { accountId, deletedAt, keysRevoked };
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
          // A deleted account keeps its document (ADR 0033), so a reservation always has its account.
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
