import { maxCreditBatch, type ErrorCode } from '@vrs/contracts';
import { AppError, type Logger } from '@vrs/kit';
import type { GatewayServices } from '../services';

/**
 * Sends items one call at a time (group commit, ADR 0083): the items of one tick go together once its
 * promise jobs have run (as DataLoader gathers its loads), and items arriving while a call is in
 * flight wait for it and go together in the next, up to `maxItems` a call. No timer: a batch is what
 * one tick or one round trip gathered (ADR 0116). `send` answers one result per item, in order; its
 * failure fails every item it carried.
 */
export function groupCommit<I, O>(send: (items: I[]) => Promise<O[]>, maxItems = maxCreditBatch): (item: I) => Promise<O> {
  const waiting: { item: I; resolve: (result: O) => void; reject: (error: unknown) => void }[] = [];
  let inFlight = false;
  let flushQueued = false;
  const flush = () => {
    flushQueued = false;
    if (inFlight || waiting.length === 0) return;
    const batch = waiting.splice(0, maxItems);
    inFlight = true;
    send(batch.map((entry) => entry.item))
      .then(
        (results) => {
          for (const [i, entry] of batch.entries()) {
            const result = results[i];
            if (result === undefined)
              entry.reject(new Error(`the batch call answered ${results.length} results for ${batch.length} items`));
            else entry.resolve(result);
          }
        },
        (error: unknown) => {
          for (const entry of batch) entry.reject(error);
        },
      )
      .finally(() => {
        inFlight = false;
        flush();
      });
  };
  return (item) =>
    new Promise<O>((resolve, reject) => {
      waiting.push({ item, resolve, reject });
      if (flushQueued) return;
      flushQueued = true;
      // After the promise jobs queued so far, then at the end of the tick: where DataLoader sends its batch.
      void Promise.resolve().then(() => process.nextTick(flush));
    });
}

/** The 503 of a call billing did not answer: the request is not charged, and says so. */
export function billingUnavailable(message: string): AppError {
  return new AppError('BILLING_UNAVAILABLE', message, { charged: 0, retryAfterSeconds: 2 });
}

type ItemResult<T> = ({ ok: true } & T) | { ok: false; code: string; message: string; details?: Record<string, unknown> };

function answerOf<T>(result: ItemResult<T>): T {
  if (result.ok) return result;
  throw new AppError(result.code as ErrorCode, result.message, result.details);
}

/** How often a cancel billing did not take is sent again. */
const cancelRetryMs = 1_000;

/**
 * The gateway's calls of billing's credit procedures (ADR 0083): the requests of this process share
 * each billing call (`credits.reserveMany`, `credits.closeMany`), so concurrency costs billing fewer
 * calls, not more. A reservation whose settle got no answer is cancelled until billing takes the
 * cancel, so what its client was told ("not charged") is what the ledger says, even if that settle
 * had committed.
 */
export function createCreditCalls(billing: GatewayServices['billing'], log: Logger) {
  const reserveBatch = groupCommit(async (items: { accountId: string; amount: number; operation: string; requestId: string }[]) => {
    try {
      return (await billing.credits.reserveMany.mutate({ items })).results;
    } catch (err) {
      log.warn({ err, items: items.length }, 'billing did not answer a reserve');
      throw billingUnavailable('Billing did not answer, so nothing was reserved or charged. Try again shortly.');
    }
  });
  type Close = { reservationId: string; outcome: 'settle'; amount: number } | { reservationId: string; outcome: 'cancel' };
  const close = async (items: Close[]) => (await billing.credits.closeMany.mutate({ items })).results;
  const closeBatch = groupCommit(close);
  // Cancels being retried go in calls of their own: one billing keeps failing on never holds up live settles.
  const cancelBatch = groupCommit(close);

  /** Reservations to cancel: their settle or refund got no answer. */
  const toCancel = new Set<string>();
  let retrying: NodeJS.Timeout | undefined;
  async function cancelPending(): Promise<void> {
    const ids = [...toCancel];
    await Promise.all(
      ids.map(async (reservationId) => {
        try {
          answerOf(await cancelBatch({ reservationId, outcome: 'cancel' }));
          toCancel.delete(reservationId);
        } catch (err) {
          // NOT_FOUND and the like will not change: only an unanswered call is tried again.
          if (err instanceof AppError) {
            toCancel.delete(reservationId);
            log.error({ err, reservationId }, 'billing refused to cancel a reservation');
          }
        }
      }),
    );
  }
  function runCancels() {
    void cancelPending().finally(() => {
      retrying = toCancel.size > 0 ? setTimeout(runCancels, cancelRetryMs).unref() : undefined;
    });
  }
  function scheduleCancel(reservationId: string) {
    toCancel.add(reservationId);
    retrying ??= setTimeout(runCancels, cancelRetryMs).unref();
  }

  return {
    /** Holds `amount`; an account short of it is a 402 INSUFFICIENT_CREDITS with the balance it can spend. */
    async reserve(item: { accountId: string; amount: number; operation: string; requestId: string }) {
      return answerOf(await reserveBatch(item));
    },
    /**
     * Charges `amount` of the reservation. Unanswered, it is a 503 BILLING_UNAVAILABLE and the reservation
     * is cancelled (in the background until billing takes it): whether or not the settle committed, nothing stays charged.
     */
    async settle(reservationId: string, amount: number): Promise<{ charged: number; balance: number }> {
      const result = await closeBatch({ reservationId, outcome: 'settle', amount }).catch((err: unknown) => {
        log.warn({ err, reservationId, amount }, 'billing did not answer a settle; the reservation is cancelled');
        scheduleCancel(reservationId);
        throw billingUnavailable(
          'Billing did not record the charge, so this request was not charged and its result is not given. Try again shortly.',
        );
      });
      return answerOf(result);
    },
    /** Gives the whole hold back (the work failed); one billing did not answer is cancelled in the background. */
    async refund(reservationId: string): Promise<void> {
      try {
        answerOf(await closeBatch({ reservationId, outcome: 'cancel' }));
      } catch (err) {
        if (err instanceof AppError) log.error({ err, reservationId }, 'billing refused a refund');
        else scheduleCancel(reservationId);
      }
    },
    /** At shutdown, once the server stopped taking requests: the pending cancels get one more try. */
    async close(): Promise<void> {
      if (retrying) clearTimeout(retrying);
      retrying = undefined;
      if (toCancel.size > 0) await cancelPending();
      if (toCancel.size > 0) log.error({ reservations: [...toCancel] }, 'reservations left to expire: billing did not take their cancel');
    },
  };
}

export type CreditCalls = ReturnType<typeof createCreditCalls>;
