import {
  BrokenCircuitError,
  CircuitState,
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
  /** Per attempt, including reading the body. */
  timeoutMs: number;
  /** Retries after the first attempt, for transport failures only (429, 5xx, timeouts, network). */
  retries: number;
  retryBaseDelayMs: number;
  breaker: { failureThreshold: number; halfOpenAfterMs: number };
  /** Requests in flight at once to each upstream host (www.youtube.com, youtubei.googleapis.com, ...). */
  maxConcurrency: number;
  /** Hears the circuit breaker change state: closed at once, then each change (the provider's breaker-state metric). */
  onBreakerState?: (state: BreakerState) => void;
}

export type BreakerState = 'closed' | 'half_open' | 'open';

export interface ExchangeOptions {
  /**
   * A read the caller can do without (a video's WEB player and /next beside its player). It waits
   * for nothing the breaker does not allow, but its outcome is not counted: its successes must not
   * keep the circuit closed while the reads that matter fail (YouTube refusing players only).
   */
  optional?: boolean;
}

/** Runs one exchange with `host` (the URL's own host, before any rewrite to a test origin). */
export type Guarded = <T>(host: string, attempt: (signal: AbortSignal) => Promise<T>, options?: ExchangeOptions) => Promise<T>;

/**
 * Wraps each upstream exchange: jittered retries, outside a circuit breaker on consecutive transport
 * failures, outside a concurrency limit per host, outside a per-attempt timeout. A request waiting
 * out its backoff holds no slot, and time spent queued is not counted against the timeout. The limit
 * is per host (separate services, separate capacity); the breaker is one for all, since an outage of
 * YouTube is rarely one host's alone.
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
  if (options.onBreakerState) {
    const hear = options.onBreakerState;
    hear('closed');
    breakerPolicy.onStateChange((state) =>
      hear(state === CircuitState.Closed ? 'closed' : state === CircuitState.HalfOpen ? 'half_open' : 'open'),
    );
  }
  // An attempt returns only once its body is read whole, so there is nothing left to abort then, and
  // aborting builds a DOMException (with its stack) per exchange for nothing (ADR 0040).
  const timeoutPolicy = timeout(options.timeoutMs, { strategy: TimeoutStrategy.Aggressive, abortOnReturn: false });
  const limits = new Map<string, ReturnType<typeof pLimit>>();
  const limitFor = (host: string) => {
    const limit = limits.get(host) ?? pLimit(options.maxConcurrency);
    limits.set(host, limit);
    return limit;
  };

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

  return async (host, attempt, exchange = {}) => {
    const limit = limitFor(host);
    const run = () => limit(() => timed(attempt));
    // An optional read goes only while the circuit is closed: half-open, the one trial call is a counted one.
    const guardedRun = exchange.optional
      ? () => (breakerPolicy.state === CircuitState.Closed ? run() : Promise.reject(new BrokenCircuitError()))
      : () => breakerPolicy.execute(run);
    try {
      return await retryPolicy.execute(guardedRun);
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
