import { newId } from '@vrs/kit';
import { runCheck } from '../checks/run-check';
import { runDigest } from '../digests/run-digest';
import { runDelivery } from '../webhooks/deliver';
import type { CheckDeps, SchedulerHandle } from '../monitoring-deps';

/**
 * Due monitors handed to a pass's workers: ids fetched a page at a time (one query per page, not per
 * check), each claimed by its own conditional update when a worker takes it, so a candidate another
 * replica got meanwhile is simply skipped.
 */
function createCandidateQueue(deps: CheckDeps) {
  const queue: string[] = [];
  let exhausted = false;
  let refill: Promise<void> | null = null;
  return {
    async claimNext(leaseToken: string) {
      for (;;) {
        const monitorId = queue.shift();
        if (monitorId !== undefined) {
          const monitor = await deps.monitors.claim(monitorId, deps.clock.now().getTime(), deps.config.leaseMs, leaseToken);
          if (monitor) return monitor;
          continue;
        }
        if (exhausted) return null;
        refill ??= deps.monitors
          .dueCandidates(deps.clock.now().getTime(), deps.config.concurrency * 8)
          .then((ids) => {
            if (ids.length === 0) exhausted = true;
            queue.push(...ids);
          })
          .finally(() => {
            refill = null;
          });
        await refill;
      }
    },
  };
}

/**
 * The scheduler keeps no schedule of its own: the store is the schedule (ADR 0028). A pass runs
 * `concurrency` workers; each claims one due monitor at a time with an atomic conditional update
 * (a lease), checks it, and claims the next until none is due. A lease is taken only right before
 * its check runs, so a long pass never holds monitors it has not started.
 */
export function createScheduler(deps: CheckDeps): SchedulerHandle & { start(): void; stop(): Promise<void> } {
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<string[]> | null = null;
  let again = false;

  async function pass(): Promise<string[]> {
    const checkIds: string[] = [];
    const candidates = createCandidateQueue(deps);
    const worker = async () => {
      for (;;) {
        const leaseToken = newId('lease');
        const monitor = await candidates.claimNext(leaseToken);
        if (!monitor) return;
        const checkId = await runCheck(deps, monitor, leaseToken).catch((err) => {
          deps.logger.error({ err, monitorId: monitor._id }, 'check crashed; its lease expires and the monitor is retried');
          return null;
        });
        if (checkId) checkIds.push(checkId);
      }
    };
    await Promise.all(Array.from({ length: deps.config.concurrency }, worker));
    // Digests after the checks, so a digest due now includes what this pass found.
    for (;;) {
      const leaseToken = newId('lease');
      const due = await deps.digestPreferences.claimDue(deps.clock.now().getTime(), deps.config.leaseMs, leaseToken);
      if (!due) break;
      await runDigest(deps, due, leaseToken).catch((err) =>
        deps.logger.error({ err, accountId: due._id }, 'digest failed; retried when its lease expires'),
      );
    }
    // Then the webhook deliveries due, this pass's notifications among them.
    const deliverer = async () => {
      for (;;) {
        const leaseToken = newId('lease');
        const due = await deps.deliveries.claimDue(deps.clock.now().getTime(), deps.config.leaseMs, leaseToken);
        if (!due) return;
        await runDelivery(deps, due, leaseToken).catch((err) =>
          deps.logger.error({ err, deliveryId: due._id }, 'delivery crashed; retried when its lease expires'),
        );
      }
    };
    await Promise.all(Array.from({ length: deps.config.concurrency }, deliverer));
    return checkIds;
  }

  /** One pass at a time per process; a wake during a pass runs another right after it. */
  function trigger(): Promise<string[]> {
    if (inFlight) {
      again = true;
      return inFlight;
    }
    inFlight = pass()
      .catch((err) => {
        deps.logger.error({ err }, 'scheduler pass failed');
        return [];
      })
      .finally(() => {
        inFlight = null;
        if (again) {
          again = false;
          void trigger();
        }
      });
    return inFlight;
  }

  return {
    wake() {
      void trigger();
    },
    async runDue() {
      while (inFlight) await inFlight;
      return trigger();
    },
    start() {
      if (deps.config.tickMs > 0) timer = setInterval(() => void trigger(), deps.config.tickMs);
    },
    async stop() {
      clearInterval(timer);
      again = false;
      while (inFlight) await inFlight;
    },
  };
}
