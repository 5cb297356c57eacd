import type { TRPCClient } from '@trpc/client';
import type { Llm } from '@vrs/ai';
import type { Announcer, EventBus } from '@vrs/bus';
import type { ControllableClock, Logger } from '@vrs/kit';
import type { ProviderRouter } from '@vrs/provider';
import type { PlansRepo } from './repo/plans-repo';
import type { SnapshotsRepo } from './repo/snapshots-repo';

export interface TrendsModuleConfig {
  /** The test-only clock procedure answers only when this is on (never in production: see config.ts). */
  clockControl: boolean;
  enrichConcurrency: number;
  /** Days a snapshot is kept (at least the 30-day lookback, the default). */
  snapshotRetentionDays?: number;
  /** How often expired snapshots are deleted; one hour when absent. */
  retentionSweepIntervalMs?: number;
}

/** What every trends procedure is built with. */
export interface TrendsDeps {
  /** The provider service: in-process when the gateway hosts both, over HTTP otherwise. */
  provider: TRPCClient<ProviderRouter>;
  /** Null when no model is configured: reports go without insights, plans answer 503. */
  llm: Llm | null;
  snapshots: SnapshotsRepo;
  plans: PlansRepo;
  bus: EventBus;
  /** Publishes a report's event beside the report rather than before it (ADR 0040). */
  announcer: Announcer;
  clock: ControllableClock;
  logger: Logger;
  config: TrendsModuleConfig;
}
