import { recordOutboxEvent } from '@vrs/bus';
import type { Store, StoreScope } from '@vrs/store';
import { countLedgerLine, newId, required } from '@vrs/kit';
import {
  billingAccountDeleted,
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
import { createLedgerRepo, type NewLedgerEntry } from './ledger';
import { createReservationsRepo, type ReservationDoc } from './reservations';
import { topUp } from './top-up';
import { createSessionsRepo } from './sessions';
import { createEmailLinksRepo } from './email-links';
import { createDeviceCodesRepo } from './device-codes';
import { createOAuthClientsRepo } from './oauth-clients';
import { createOAuthCodesRepo } from './oauth-codes';
import { createOAuthRefreshTokensRepo } from './oauth-refresh-tokens';

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

/** `cancel`: refunded if still held, its charge given back if settled (ADR 0083). */
export type CloseOutcome = 'settled' | 'refunded' | 'expired' | 'cancel';

export function createBillingRepo(store: Store, options: BillingRepoOptions) {
  const clock = options.clock ?? Date.now;
  const plans = options.plans ?? planCatalogue();
  const nowIso = () => new Date(clock()).toISOString();
  /** A transaction through the scoped repositories; the ledger lines it wrote count in metrics once it commits. */
  const transaction = async <T>(work: (repo: ScopedRepos, tx: StoreScope) => Promise<T>): Promise<T> => {
    let written: NewLedgerEntry[] = [];
    const result = await store.withTransaction((tx) => {
      // A retried attempt starts afresh: only the committed one's lines are counted.
      written = [];
      return work(scopedRepos(tx, clock, written), tx);
    });
    for (const line of written) countLedgerLine(line.kind, line.amount);
    return result;
  };
  const indexed = {
    ...scopedRepos(store, clock),
    sessions: createSessionsRepo(store, clock),
    emailLinks: createEmailLinksRepo(store, clock),
    deviceCodes: createDeviceCodesRepo(store),
    oauthCodes: createOAuthCodesRepo(store),
    oauthRefreshTokens: createOAuthRefreshTokensRepo(store),
  };

  return {
    ...indexed,
    oauthClients: createOAuthClientsRepo(store),
    /** Milliseconds since the epoch, as every repository sees it. */
    clock,
    ping: () => store.ping(),

    createIndexes: async () => {
      await Promise.all(Object.values(indexed).map((repo) => repo.createIndexes()));
    },

    /**
     * Moves an account whose period has ended into the period that contains now, with its grant, in
     * one transaction (ADR 0032). The period change is conditional on the old end and the grant line
     * has a per-period id, so concurrent or repeated renewals grant a period once. An account opened
     * before subscriptions gets a period but no grant (it had its starting credits).
     */
    renew: (accountId: string): Promise<RenewalOutcome> =>
      transaction(async (repo) => {
        const now = clock();
        const account = await repo.accounts.findById(accountId);
        if (!account) return { kind: 'skipped' };
        const { currentPeriodEnd, status, cancelAtPeriodEnd } = account.subscription;
        const legacy = currentPeriodEnd === null;
        if (!legacy && Date.parse(currentPeriodEnd) > now) return { kind: 'skipped' };
        const period = periodContaining(Date.parse(account.createdAt), now);
        const currentPeriodStart = new Date(period.start).toISOString();
        const fallsBack = currentStateName(status) === 'cancelled' || cancelAtPeriodEnd === true;
        const plan = fallsBack ? defaultPlanId : account.plan;
        const nextStatus = legacy || fallsBack ? 'active' : currentStateName(status);
        const renewed = await repo.accounts.replaceSubscription(accountId, currentPeriodEnd, plan, {
          status: nextStatus,
          currentPeriodStart,
          currentPeriodEnd: new Date(period.end).toISOString(),
          cancelAtPeriodEnd: false,
        });
        if (!renewed) return { kind: 'skipped' };
        const grants = nextStatus === 'active' && !legacy;
        const granted = grants ? await topUp(repo, renewed, currentPeriodStart, plans[plan].monthlyCredits, { kind: 'renewal' }) : null;
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
      transaction(async (repo) => {
        const account = await repo.accounts.findById(accountId);
        if (!account) return null;
        const before = account.subscription;
        const period = periodContaining(Date.parse(account.createdAt), clock());
        const kept =
          before.currentPeriodStart && before.currentPeriodEnd ? { start: before.currentPeriodStart, end: before.currentPeriodEnd } : null;
        const currentPeriodStart = kept ? kept.start : new Date(period.start).toISOString();
        const changed = await repo.accounts.replaceSubscription(accountId, before.currentPeriodEnd, plan, {
          status,
          currentPeriodStart,
          currentPeriodEnd: kept ? kept.end : new Date(period.end).toISOString(),
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
      transaction(async (repo) => {
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
      transaction(async (repo, tx) => {
        const deletedAt = nowIso();
        const account = await repo.accounts.markDeleted(accountId, deletedAt);
        if (!account) return null;
        const keysRevoked = await repo.apiKeys.revokeAllOfAccount(accountId, deletedAt);
        // The account's id names the event: a deletion happens once, so one id per account is enough.
        await recordOutboxEvent(tx, billingAccountDeleted, { accountId, deletedAt }, `account-deleted-${accountId}`);
        return { accountId, deletedAt, keysRevoked };
      }),

    /**
     * Holds credits for several operations in ONE transaction (ADR 0083), each item on its own: the
     * conditional hold on the account (balance ≥ amount, so no number of holds can overdraw it) and
     * the reservation. An item the account cannot cover is refused with the account's balance at
     * that point, which is what it can spend; a missing or deleted account is refused as such. A
     * hold is not a ledger line: only what it charges becomes one.
     */
    reserveMany: (items: ReserveItem[]): Promise<ReserveOutcome[]> =>
      transaction(async (repo) => {
        const now = clock();
        const outcomes: ReserveOutcome[] = new Array(items.length);
        const held: ReservationDoc[] = [];
        // One read and one conditional update per account, however many of its items: the items are
        // judged in order against its balance as a hold of each in turn would have judged them.
        for (const [accountId, group] of groupBy(items.entries(), ([, item]) => item.accountId)) {
          const account = await repo.accounts.findById(accountId);
          let balance = account?.balance ?? 0;
          let total = 0;
          for (const [i, { amount, operation, requestId }] of group) {
            if (!account || account.deletedAt) {
              outcomes[i] = { refused: account ? 'ACCOUNT_DELETED' : 'ACCOUNT_NOT_FOUND', balance };
            } else if (amount > balance) {
              outcomes[i] = { refused: 'INSUFFICIENT_CREDITS', balance };
            } else {
              balance -= amount;
              total += amount;
              const reservationId = newId('res');
              held.push({
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
                heldInLedger: false,
              });
              outcomes[i] = { reservationId, balance };
            }
          }
          // The transaction saw the balance: the hold's condition only guards against a store that did not isolate it.
          if (total > 0 && !(await repo.accounts.hold(accountId, total))) throw new Error(`account ${accountId} changed during its holds`);
        }
        if (held.length > 0) await repo.reservations.insertMany(held);
        return outcomes;
      }),

    /**
     * Settles (charging `charged`), refunds or expires (charging 0) a reservation exactly once, in
     * one transaction: the reserved→closed transition is conditional, so of any number of concurrent
     * or repeated calls only one moves credits and writes the ledger line; the others get the
     * reservation as that one closed it (the caller decides whether that is a replay or a conflict)
     * and the current balance. A settle after the sweeper expired the hold charges the balance when
     * it covers the amount (the operation did run); otherwise the reservation stays expired.
     */
    closeReservation: (reservation: ReservationDoc, outcome: CloseOutcome, charged: number) =>
      transaction((repo) => closeIn(repo, reservation, outcome, charged, nowIso())),

    /**
     * Several closes in ONE transaction (ADR 0083), each as `closeReservation` would close it, in
     * order; null for an unknown reservation. Held reservations are closed together: one read of
     * them all, one update per outcome and amount, one release per account, the ledger lines in
     * one insert. Anything else (closed already, named twice) is closed one at a time afterwards.
     */
    closeMany: (items: { reservationId: string; outcome: CloseOutcome; charged: number }[]) =>
      transaction(async (repo) => {
        const closedAt = nowIso();
        const found = new Map(
          (await repo.reservations.findByIds([...new Set(items.map((item) => item.reservationId))])).map((r) => [r._id, r]),
        );
        type Closed = { reservation: ReservationDoc; balance: number; held: number } | null;
        const closed: Closed[] = new Array(items.length);
        const together: { i: number; reservation: ReservationDoc; status: 'settled' | 'refunded'; charged: number }[] = [];
        const later: { i: number; reservationId: string; outcome: CloseOutcome; charged: number }[] = [];
        const taken = new Set<string>();
        for (const [i, { reservationId, outcome, charged }] of items.entries()) {
          const reservation = found.get(reservationId);
          if (!reservation) closed[i] = null;
          else if (outcome === 'settled' && charged > reservation.amount) closed[i] = { reservation, balance: 0, held: reservation.amount };
          else if (reservation.status !== 'reserved' || taken.has(reservationId) || outcome === 'expired')
            later.push({ i, reservationId, outcome, charged });
          else {
            taken.add(reservationId);
            together.push({
              i,
              reservation,
              status: outcome === 'settled' ? 'settled' : 'refunded',
              charged: outcome === 'settled' ? charged : 0,
            });
          }
        }
        for (const group of groupBy(together, (entry) => `${entry.status}:${entry.charged}`).values()) {
          const [{ status, charged }] = group;
          const ids = group.map((entry) => entry.reservation._id);
          const { modifiedCount } = await repo.reservations.closeAll(ids, status, charged, closedAt);
          if (modifiedCount !== ids.length) throw new Error('reservations changed during their close');
        }
        const lines: NewLedgerEntry[] = [];
        for (const [accountId, group] of groupBy(together, (entry) => entry.reservation.accountId)) {
          let held = 0;
          let charged = 0;
          for (const { reservation, status, charged: amount } of group) {
            held += reservation.amount;
            charged += amount;
            const { _id: reservationId, operation, requestId } = reservation;
            if (reservation.heldInLedger !== false) {
              lines.push({
                accountId,
                kind: status === 'settled' ? 'settle' : 'refund',
                amount: reservation.amount - amount,
                operation,
                reservationId,
                requestId,
              });
            } else if (amount > 0) lines.push({ accountId, kind: 'charge', amount: -amount, operation, reservationId, requestId });
          }
          const account = required(await repo.accounts.release(accountId, held, charged), `account ${accountId} of a reservation`);
          for (const { i, reservation, status, charged: amount } of group) {
            closed[i] = {
              reservation: { ...reservation, status, charged: amount, closedAt },
              balance: account.balance,
              held: reservation.amount,
            };
          }
        }
        if (lines.length > 0) await repo.ledger.appendMany(lines);
        for (const { i, reservationId, outcome, charged } of later) {
          const reservation = required(
            await repo.reservations.findById(reservationId),
            `reservation ${reservationId}, read earlier in this transaction`,
          );
          closed[i] = { ...(await closeIn(repo, reservation, outcome, charged, closedAt)), held: reservation.amount };
        }
        return closed;
      }),
  };
}

/** `items` grouped by `keyOf`, each group in their order (never empty). */
function groupBy<T>(items: Iterable<T>, keyOf: (item: T) => string): Map<string, [T, ...T[]]> {
  const groups = new Map<string, [T, ...T[]]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}

/** One item of `reserveMany`. */
export type ReserveItem = Pick<ReservationDoc, 'accountId' | 'amount' | 'operation'> & { requestId: string };
/** A held item's reservation and the balance it left, or why it was refused and the balance then. */
export type ReserveOutcome =
  | { reservationId: string; balance: number; refused?: undefined }
  | { refused: 'ACCOUNT_NOT_FOUND' | 'ACCOUNT_DELETED' | 'INSUFFICIENT_CREDITS'; balance: number };

/** The repositories a transaction's writes go through. */
function scopedRepos(scope: StoreScope, clock: () => number, written?: NewLedgerEntry[]) {
  return {
    accounts: createAccountsRepo(scope),
    apiKeys: createApiKeysRepo(scope, clock),
    reservations: createReservationsRepo(scope),
    ledger: createLedgerRepo(scope, clock, written),
  };
}
type ScopedRepos = ReturnType<typeof scopedRepos>;

/**
 * The close of `closeReservation`, inside the caller's transaction: a `charge` line for what was
 * charged, a `refund` line for a charge given back; a reservation held in the ledger (before ADR
 * 0083) closes with the `settle`/`refund` line of what returned to the balance, as then.
 */
async function closeIn(repo: ScopedRepos, reservation: ReservationDoc, outcome: CloseOutcome, charged: number, closedAt: string) {
  const { _id: reservationId, accountId, amount: held, operation, requestId } = reservation;
  const heldInLedger = reservation.heldInLedger !== false;
  const line = (kind: 'charge' | 'settle' | 'refund', amount: number) =>
    repo.ledger.append({ accountId, kind, amount, operation, reservationId, requestId });
  const release = outcome === 'cancel' ? 'refunded' : outcome;
  const closed = await repo.reservations.close(reservationId, 'reserved', release, release === 'settled' ? charged : 0, closedAt);
  if (closed) {
    // A deleted account keeps its document (ADR 0033), so a reservation always has its account.
    const account = required(
      await repo.accounts.release(accountId, held, closed.charged ?? 0),
      `account ${accountId} of reservation ${reservationId}`,
    );
    if (heldInLedger) await line(release === 'settled' ? 'settle' : 'refund', held - (closed.charged ?? 0));
    else if (closed.charged) await line('charge', -closed.charged);
    return { reservation: closed, balance: account.balance };
  }
  const current = required(await repo.reservations.findById(reservationId), `reservation ${reservationId}`);
  if (outcome === 'settled' && current.status === 'expired' && charged > 0) {
    const charge = await repo.accounts.charge(accountId, charged);
    if (charge) {
      // The transaction keeps the reservation as read: it is still expired here.
      const late = await repo.reservations.close(reservationId, 'expired', 'settled', charged, closedAt);
      if (!late) throw new Error(`reservation ${reservationId} changed during its settle`);
      await line(heldInLedger ? 'settle' : 'charge', -charged);
      return { reservation: late, balance: charge.balance };
    }
  }
  if (outcome === 'cancel' && current.status === 'settled' && current.charged) {
    const given = await repo.reservations.close(reservationId, 'settled', 'refunded', 0, closedAt);
    if (!given) throw new Error(`reservation ${reservationId} changed during its cancel`);
    const account = required(
      await repo.accounts.uncharge(accountId, current.charged),
      `account ${accountId} of reservation ${reservationId}`,
    );
    await line('refund', current.charged);
    return { reservation: given, balance: account.balance };
  }
  const account = required(await repo.accounts.findById(accountId), `account ${accountId} of reservation ${reservationId}`);
  return { reservation: current, balance: account.balance };
}

export type BillingRepo = ReturnType<typeof createBillingRepo>;
