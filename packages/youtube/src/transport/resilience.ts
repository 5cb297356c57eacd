import {
  BrokenCircuitError,
  circuitBreaker,
  ConsecutiveBreaker,
  ExponentialBackoff,
  handleWhen,
  retry,
  TaskCancelledError,
  timeout,
  TimeoutStrategy,
} from 'cockatiel';
import pLimit from 'p-limit';
import { isTransportFailure, upstreamError } from '../errors';

export interface ResilienceOptions {
  timeoutMs: number;
  /** Retries after the first attempt, for transport failures only (429, 5xx, timeouts, network). */
  retries: number;
  retryBaseDelayMs: number;
  breaker: { failureThreshold: number; halfOpenAfterMs: number };
  maxConcurrency: number;
}

export type Guarded = <T>(attempt: (signal: AbortSignal) => Promise<T>) => Promise<T>;

/**
 * Wraps each upstream exchange: bounded, jittered retries outside a circuit breaker that counts
 * consecutive transport failures, outside a concurrency limit, outside a per-attempt timeout. The
 * limit sits inside the retry so a request waiting out its backoff holds no slot, and the timeout
 * inside the limit so time spent queued is not counted against the exchange.
 */
export function createResilience(options: ResilienceOptions): Guarded {
  const transportFailures = handleWhen(isTransportFailure);
  const retryPolicy = retry(transportFailures, {
    maxAttempts: options.retries,
    // cockatiel's exponential backoff uses decorrelated jitter by default.
    backoff: new ExponentialBackoff({ initialDelay: options.retryBaseDelayMs, maxDelay: options.retryBaseDelayMs * 32 }),
  });
  const breakerPolicy = circuitBreaker(transportFailures, {
    halfOpenAfter: options.breaker.halfOpenAfterMs,
    breaker: new ConsecutiveBreaker(options.breaker.failureThreshold),
  });
  const timeoutPolicy = timeout(options.timeoutMs, TimeoutStrategy.Aggressive);
  const limit = pLimit(options.maxConcurrency);

  const timed = async <T>(attempt: (signal: AbortSignal) => Promise<T>): Promise<T> => {
    try {
      return await timeoutPolicy.execute(({ signal }) => attempt(signal));
    } catch (error) {
      if (error instanceof TaskCancelledError) {
        throw upstreamError('timeout', `YouTube did not answer within ${options.timeoutMs} ms`, { cause: error });
      }
      throw error;
    }
  };

  return async (attempt) => {
    try {
      return await retryPolicy.execute(() => breakerPolicy.execute(() => limit(() => timed(attempt))));
    } catch (error) {
      if (error instanceof BrokenCircuitError) {
        // The pause started at most halfOpenAfterMs ago: a trial call is allowed within that.
        throw upstreamError('circuit_open', 'Calls to YouTube are paused after repeated failures (circuit open)', {
          cause: error,
          retryAfterMs: options.breaker.halfOpenAfterMs,
        });
      }
      throw error;
    }
  };
}
