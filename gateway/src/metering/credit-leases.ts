import { TRPCClientError } from '@trpc/client';
import { AppError, type Logger } from '@vrs/kit';
import { fromServiceError } from '../errors/to-app-error';
import type { GatewayServices } from '../services';

/** What the leases need of billing: its reserve, settle and refund (ADR 0002/0023). */
export interface LeaseBilling {
  reserve(input: { accountId: string; amount: number; operation: string; requestId?: string }): Promise<{
    reservationId: string;
    balance: number;
  }>;
  settle(input: { reservationId: string; amount: number }): Promise<unknown>;
  refund(input: { reservationId: string }): Promise<unknown>;
}

/** Billing's credit procedures as the leases call them, its errors as the AppErrors it threw. */
export function leaseBillingOf(billing: GatewayServices['billing']): LeaseBilling {
  const translated =
    <I, O>(call: (input: I) => Promise<O>) =>
    async (input: I): Promise<O> => {
      try {
        return await call(input);
      } catch (error) {
        throw error instanceof TRPCClientError ? fromServiceError(error) : error;
      }
    };
  return {
    reserve: translated((input: Parameters<LeaseBilling['reserve']>[0]) => billing.credits.reserve.mutate(input)),
    settle: translated((input: Parameters<LeaseBilling['settle']>[0]) => billing.credits.settle.mutate(input)),
    refund: translated((input: Parameters<LeaseBilling['refund']>[0]) => billing.credits.refund.mutate(input)),
  };
}

export interface CreditLeaseSettings {
  /** Credits one lease holds (fewer when the balance is smaller). */
  credits: number;
  /**
   * The most a lease grows to: an account's next lease doubles, up to this, while each is used up
   * within `quickMs` of being taken, so a busy account's lease lasts about that long. Default: `credits`.
   */
  maxCredits?: number;
  /** A lease nobody used for this long goes back to billing. */
  idleMs: number;
  /** A lease is settled once this old however busy, well inside billing's reservation TTL. */
  maxAgeMs: number;
  log: Logger;
  clock?: () => number;
}

/** A lease used up sooner than this after it was taken makes the account's next one larger. */
const quickMs = 1_000;

/** One block of an account's credits held by this process: a billing reservation under `creditLease`. */
interface Lease {
  accountId: string;
  reservationId: string;
  size: number;
  /** Charged to requests that finished. */
  spent: number;
  /** Held for requests still running. */
  held: number;
  /** The account's balance at billing once this lease was taken. */
  balanceAfterHold: number;
  openedAt: number;
  lastUsedAt: number;
  /** No new request takes from it; settled when `held` reaches 0. */
  retired: boolean;
  closed?: Promise<void>;
}

/** A request's share of a lease: settled or refunded exactly once. */
export interface LeaseHold {
  /** Charges `amount` (at most what was held); answers what the account has left. */
  settle(amount: number): { charged: number; remaining: number };
  /** Gives the hold back; answers what the account has left. */
  refund(): { remaining: number };
}

/** The 402 a short balance answers, with what billing holds and what the request needed. */
export function insufficientCredits(balance: number, required: number): AppError {
  return new AppError('INSUFFICIENT_CREDITS', `This operation needs ${required} credits; the account has ${balance}.`, {
    balance,
    required,
  });
}

function shortBalanceOf(error: unknown): number | undefined {
  if (!(error instanceof AppError) || error.code !== 'INSUFFICIENT_CREDITS') return undefined;
  return (error.details as { balance?: number } | undefined)?.balance ?? 0;
}

/**
 * Credit leases (ADR 0039): this gateway process holds a bounded block of an account's credits as
 * ONE billing reservation and charges requests against it in memory, so a metered request makes no
 * billing call while its lease covers it. The block is settled for exactly what its requests were
 * charged when it runs out, goes idle, grows old, or the process stops; a crashed process's block
 * comes back through the reservation's expiry (ADR 0023). Billing never lets a lease exceed the
 * balance, so no account goes below zero; another replica sees at most one lease per account held here.
 */
export function createCreditLeases(billing: LeaseBilling, settings: CreditLeaseSettings) {
  const clock = settings.clock ?? Date.now;
  const maxCredits = Math.max(settings.credits, settings.maxCredits ?? settings.credits);
  const current = new Map<string, Lease>();
  /** The size of each busy account's next lease, when larger than `credits` (see `maxCredits`). */
  const nextSizes = new Map<string, number>();
  /** Leases taken out of use and not yet settled (some still running requests), by account. */
  const retiring = new Map<string, Set<Lease>>();
  const opening = new Map<string, Promise<void>>();
  /** Leases of each account settled so far: a refusal that raced with one is asked again. */
  const closedLeases = new Map<string, number>();

  const available = (lease: Lease) => lease.size - lease.spent - lease.held;
  const remainingOf = (lease: Lease) => lease.balanceAfterHold + available(lease);

  async function close(lease: Lease): Promise<void> {
    const closeOnce = () =>
      lease.spent > 0
        ? billing.settle({ reservationId: lease.reservationId, amount: lease.spent })
        : billing.refund({ reservationId: lease.reservationId });
    try {
      await closeOnce();
    } catch (err) {
      // Settle and refund are idempotent, so one retry is safe; after that the hold expires (ADR 0023)
      // and the credits it charged go back to the account: the error never costs the customer.
      try {
        await closeOnce();
      } catch {
        settings.log.error(
          { err, reservationId: lease.reservationId, spent: lease.spent },
          'credit lease not settled; its hold expires and returns',
        );
      }
    } finally {
      closedLeases.set(lease.accountId, (closedLeases.get(lease.accountId) ?? 0) + 1);
      retiring.get(lease.accountId)?.delete(lease);
      if (retiring.get(lease.accountId)?.size === 0) retiring.delete(lease.accountId);
    }
  }

  /** Takes the lease out of use; it closes now, or when its last request ends. */
  function retire(lease: Lease): Promise<void> {
    if (!lease.retired) {
      lease.retired = true;
      if (current.get(lease.accountId) === lease) current.delete(lease.accountId);
      let set = retiring.get(lease.accountId);
      if (!set) {
        set = new Set();
        retiring.set(lease.accountId, set);
      }
      set.add(lease);
    }
    if (lease.held === 0) lease.closed ??= close(lease);
    return lease.closed ?? Promise.resolve();
  }

  /** Closes every retired lease of the account whose requests have ended, and waits for them. */
  async function settleRetired(accountId: string): Promise<void> {
    const closing = [...(retiring.get(accountId) ?? [])].filter((lease) => lease.held === 0).map(retire);
    await Promise.all(closing);
  }

  async function open(accountId: string, atLeast: number, operation: string, requestId: string): Promise<void> {
    const reserve = (amount: number) => billing.reserve({ accountId, amount, operation: 'creditLease', requestId });
    // What the previous lease did not spend goes back first, so the new one is judged on the whole balance.
    await settleRetired(accountId);
    const closedBefore = closedLeases.get(accountId) ?? 0;
    let reservation: { reservationId: string; balance: number };
    let size = Math.max(atLeast, nextSizes.get(accountId) ?? settings.credits);
    try {
      reservation = await reserve(size);
    } catch (error) {
      let balance = shortBalanceOf(error);
      if (balance === undefined) throw error;
      // A lease still running requests, or one settled while billing refused, may give credits back: ask again once.
      if (retiring.has(accountId) || (closedLeases.get(accountId) ?? 0) !== closedBefore) {
        await settleRetired(accountId);
        try {
          reservation = await reserve(size);
          return install(accountId, reservation, size);
        } catch (retryError) {
          balance = shortBalanceOf(retryError);
          if (balance === undefined) throw retryError;
        }
      }
      if (balance < atLeast) throw insufficientCredits(balance, atLeast);
      size = balance;
      try {
        reservation = await reserve(size);
      } catch (lastError) {
        const lastBalance = shortBalanceOf(lastError);
        if (lastBalance === undefined) throw lastError;
        throw insufficientCredits(lastBalance, atLeast);
      }
    }
    settings.log.debug({ accountId, operation, requestId, size }, 'credit lease taken');
    install(accountId, reservation, size);
  }

  function install(accountId: string, reservation: { reservationId: string; balance: number }, size: number) {
    const now = clock();
    current.set(accountId, {
      accountId,
      reservationId: reservation.reservationId,
      size,
      spent: 0,
      held: 0,
      balanceAfterHold: reservation.balance,
      openedAt: now,
      lastUsedAt: now,
      retired: false,
    });
  }

  function holdOn(lease: Lease, amount: number): LeaseHold {
    lease.held += amount;
    lease.lastUsedAt = clock();
    let done = false;
    const finish = (charged: number) => {
      if (done) throw new Error('a lease hold was closed twice');
      done = true;
      lease.held -= amount;
      lease.spent += charged;
      if (lease.retired && lease.held === 0) void retire(lease);
    };
    return {
      settle(amount_: number) {
        const charged = Math.min(amount_, amount);
        finish(charged);
        return { charged, remaining: remainingOf(lease) };
      },
      refund() {
        finish(0);
        return { remaining: remainingOf(lease) };
      },
    };
  }

  /**
   * Holds `amount` of the account's credits for one request, from this process's lease, taking a
   * new lease when the current one cannot cover it. A short balance is the 402 INSUFFICIENT_CREDITS
   * with `{balance, required: amount}`.
   */
  async function hold(accountId: string, amount: number, operation: string, requestId: string): Promise<LeaseHold> {
    for (;;) {
      const lease = current.get(accountId);
      if (lease && available(lease) >= amount) return holdOn(lease, amount);
      const pending = opening.get(accountId);
      if (pending) {
        const refusal = await pending.then(
          () => undefined,
          (error: unknown) => error,
        );
        // Billing refused that lease even at its opener's price: at this price or more, so it would
        // this one. Answered at once, the requests waiting on a refused lease do not each go on to
        // ask billing again, every one of them woken at each refusal (a 40–65 ms turn in ADR 0061's
        // 402 storm). A lower price may still fit: look again.
        const balance = shortBalanceOf(refusal);
        const refusedAt = ((refusal as AppError | undefined)?.details as { required?: number } | undefined)?.required;
        if (balance !== undefined && refusedAt !== undefined && amount >= refusedAt) throw insufficientCredits(balance, amount);
        continue;
      }
      if (lease) {
        sizeNextLease(lease);
        void retire(lease);
      }
      const opened = open(accountId, amount, operation, requestId).finally(() => opening.delete(accountId));
      opening.set(accountId, opened);
      await opened;
    }
  }

  /**
   * A lease used up within `quickMs` of being taken is followed by one twice its size, up to
   * `maxCredits`: each lease then lasts about that long, and costs billing two calls per `quickMs`
   * however busy the account. One that lasted longer is followed by one of `credits`.
   */
  function sizeNextLease(usedUp: Lease): void {
    if (clock() - usedUp.openedAt < quickMs) nextSizes.set(usedUp.accountId, Math.min(maxCredits, usedUp.size * 2));
    else nextSizes.delete(usedUp.accountId);
  }

  /** Settles the account's leases now (its balance is about to be read), and waits for them. */
  async function returnAccount(accountId: string): Promise<void> {
    await opening.get(accountId)?.catch(() => undefined);
    const lease = current.get(accountId);
    if (lease) void retire(lease);
    await settleRetired(accountId);
  }

  const sweep = setInterval(
    () => {
      const now = clock();
      for (const lease of [...current.values()]) {
        if (now - lease.lastUsedAt >= settings.idleMs || now - lease.openedAt >= settings.maxAgeMs) void retire(lease);
      }
      for (const accountId of closedLeases.keys()) {
        if (!current.has(accountId) && !retiring.has(accountId) && !opening.has(accountId)) closedLeases.delete(accountId);
      }
      for (const accountId of nextSizes.keys()) if (!current.has(accountId) && !opening.has(accountId)) nextSizes.delete(accountId);
    },
    Math.max(50, Math.min(settings.idleMs, settings.maxAgeMs) / 2),
  );
  sweep.unref();

  return {
    hold,
    returnAccount,
    /** Leases this process holds now (for tests and the ops figures). */
    get openLeases() {
      return current.size + [...retiring.values()].reduce((sum, set) => sum + set.size, 0);
    },
    /** At shutdown, after the server stopped taking requests: every lease goes back, settled. */
    async close(): Promise<void> {
      clearInterval(sweep);
      await Promise.all([...opening.values()].map((pending) => pending.catch(() => undefined)));
      for (const lease of [...current.values()]) void retire(lease);
      await Promise.all([...retiring.values()].flatMap((set) => [...set].map((lease) => lease.closed ?? retire(lease))));
    },
  };
}

export type CreditLeases = ReturnType<typeof createCreditLeases>;
