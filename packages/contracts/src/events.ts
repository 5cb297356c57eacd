import { z } from 'zod';
import { uint } from './shapes';

/** Services that own a JetStream stream (one stream per producing service). */
export const serviceNames = ['billing', 'research', 'provider', 'trends', 'agents', 'monitoring'] as const;
export type ServiceName = (typeof serviceNames)[number];

const nonEmpty = () => z.string().min(1);

/**
 * An event kind: its subject `<service>.<aggregate>.<pastTense>` and the zod schema of its payload.
 * The subject is the event's type; the bus prefixes it with the namespace on the wire.
 */
export interface EventDefinition<S extends z.ZodType = z.ZodType> {
  type: string;
  service: ServiceName;
  schema: S;
}

export function defineEvent<S extends z.ZodType>(type: `${ServiceName}.${string}.${string}`, schema: S): EventDefinition<S> {
  const [service] = type.split('.') as [ServiceName];
  return { type, service, schema };
}

/** What travels on the wire: the payload plus what every consumer needs to trace and dedupe it. */
export const eventEnvelopeSchema = z.object({
  id: nonEmpty(),
  type: nonEmpty(),
  occurredAt: z.string(),
  requestId: z.string().optional(),
  data: z.unknown(),
});
export type EventEnvelope<T = unknown> = Omit<z.infer<typeof eventEnvelopeSchema>, 'data'> & { data: T };

export type EventData<E extends EventDefinition> = z.infer<E['schema']>;

export const researchEvidenceAdded = defineEvent(
  'research.evidence.added',
  z.object({
    accountId: nonEmpty(),
    projectId: z.string().uuid(),
    evidenceIds: z.array(nonEmpty()).min(1),
  }),
);

/*
 * Provider events: one per successful fetch from YouTube (never for a reused saved version). They
 * name what was fetched and the version it was saved as, not its content: a consumer that needs
 * the content asks the provider.
 */
const fetchedVersion = {
  provider: z.enum(['youtube']),
  /** The saved version: its id in the provider's store, and when it was fetched. */
  versionId: nonEmpty(),
  fetchedAt: nonEmpty(),
};

export const providerVideoFetched = defineEvent('provider.video.fetched', z.object({ ...fetchedVersion, videoId: nonEmpty() }));

export const providerTranscriptFetched = defineEvent(
  'provider.transcript.fetched',
  z.object({
    ...fetchedVersion,
    videoId: nonEmpty(),
    /** The language asked for; absent for the default track. */
    lang: z.string().optional(),
    trackId: nonEmpty(),
    languageCode: nonEmpty(),
    translatedTo: z.string().optional(),
  }),
);

export const providerCommentsFetched = defineEvent(
  'provider.comments.fetched',
  z.object({ ...fetchedVersion, videoId: nonEmpty(), mode: z.enum(['page', 'newest']), count: uint() }),
);

export const providerChannelFetched = defineEvent('provider.channel.fetched', z.object({ ...fetchedVersion, channelId: nonEmpty() }));

export const providerChannelPlaylistsFetched = defineEvent(
  'provider.channelPlaylists.fetched',
  z.object({
    ...fetchedVersion,
    channelId: nonEmpty(),
    sort: z.enum(['newest', 'last-video-added']),
    count: uint(),
  }),
);

export const providerPlaylistFetched = defineEvent(
  'provider.playlist.fetched',
  z.object({ ...fetchedVersion, playlistId: nonEmpty(), count: uint() }),
);

export const providerSearchFetched = defineEvent(
  'provider.search.fetched',
  z.object({ ...fetchedVersion, query: nonEmpty(), count: uint() }),
);

/** An import job was created; the research service's importer runs it (ADR 0011). */
export const researchImportRequested = defineEvent(
  'research.import.requested',
  z.object({ accountId: nonEmpty(), projectId: z.string().uuid(), jobId: nonEmpty() }),
);

/** A trend report was computed and its metric snapshots saved (ADR 0010): ids and figures, not the report. */
export const trendsReportGenerated = defineEvent(
  'trends.report.generated',
  z.object({
    reportId: nonEmpty(),
    query: nonEmpty(),
    mode: z.enum(['ai', 'deterministic']),
    videoIds: z.array(nonEmpty()),
    observedVideos: uint(),
    generatedAt: nonEmpty(),
  }),
);

/** A video plan was written from a trend report; `model` is the one that produced it. */
export const trendsPlanGenerated = defineEvent(
  'trends.plan.generated',
  z.object({ operationId: nonEmpty(), query: nonEmpty(), model: nonEmpty(), generatedAt: nonEmpty() }),
);

/** An export was created; the research service's exporter writes its file (ADR 0011). */
export const researchExportRequested = defineEvent('research.export.requested', z.object({ accountId: nonEmpty(), exportId: nonEmpty() }));

/** A monitor's check created a notification (ADR 0027): ids, not content. */
export const monitoringNotificationCreated = defineEvent(
  'monitoring.notification.created',
  z.object({
    accountId: nonEmpty(),
    notificationId: nonEmpty(),
    /** Null for digests, which summarize several monitors. */
    monitorId: nonEmpty().nullable(),
    kind: nonEmpty(),
    items: uint(),
  }),
);

/** A monitor's check finished, whatever its outcome (ADR 0028). */
export const monitoringCheckCompleted = defineEvent(
  'monitoring.check.completed',
  z.object({
    accountId: nonEmpty(),
    monitorId: nonEmpty(),
    checkId: nonEmpty(),
    outcome: z.enum(['baseline', 'unchanged', 'changed', 'failed', 'paused']),
    creditsCharged: uint(),
  }),
);

/**
 * An account was deleted (ADR 0033): its credentials are refused already, and every service removes
 * what the account owns. Recorded in billing's outbox with the deletion, so it is never lost.
 */
export const billingAccountDeleted = defineEvent('billing.account.deleted', z.object({ accountId: nonEmpty(), deletedAt: nonEmpty() }));
