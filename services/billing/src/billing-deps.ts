import type { Logger } from '@vrs/kit';
import type { BillingRepo } from './repo';

export interface BillingModuleConfig {
  /** Credits every new account receives, unless `accounts.create` is given `initialCredits`. */
  startingCredits: number;
}

/** What every billing procedure is built with. */
export interface BillingDeps {
  repo: BillingRepo;
  config: BillingModuleConfig;
  logger: Logger;
}
