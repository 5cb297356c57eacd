import type { Options, Store, IncrementResponse } from 'express-rate-limit';
import type { WindowCounter } from '@vrs/bus';

/**
 * express-rate-limit's Store over a shared fixed-window counter (NATS KV in every mode), so all
 * gateway replicas enforce one limit together instead of one each.
 */
export class WindowCounterStore implements Store {
  private windowMs = 60_000;
  readonly localKeys = false;

  constructor(
    private readonly counter: WindowCounter,
    readonly prefix: string,
  ) {}

  init(options: Options): void {
    this.windowMs = options.windowMs;
  }

  async increment(key: string): Promise<IncrementResponse> {
    const { count, resetAt } = await this.counter.increment(this.prefix + key, this.windowMs);
    return { totalHits: count, resetTime: resetAt };
  }

  async decrement(key: string): Promise<void> {
    await this.counter.decrement(this.prefix + key, this.windowMs);
  }

  async resetKey(key: string): Promise<void> {
    await this.counter.reset(this.prefix + key);
  }
}
