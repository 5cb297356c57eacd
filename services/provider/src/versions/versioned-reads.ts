import { createAnnouncer, type EventBus } from '@vrs/bus';
import type { EventData, EventDefinition } from '@vrs/contracts';
import { AppError, inSpan, requestLogFields, type Logger, type RequestContext } from '@vrs/kit';
import type { VersionDoc, VersionKind, VersionsRepo } from '../repo/versions-repo';
import { toAppError } from './upstream-error';

type OwnEventData<E extends EventDefinition> = Omit<EventData<E>, 'provider' | 'versionId' | 'fetchedAt'>;

const youtubeAttributes = { 'server.address': 'www.youtube.com', 'vrs.upstream': 'youtube' };

export interface VersionedRead<T, E extends EventDefinition> {
  kind: VersionKind;
  key: string;
  /** The request this read serves: on the failure's log line and the announced event; its fetch's span goes under it. */
  request: RequestContext;
  /** Fetch from YouTube even when a version is saved. */
  refresh: boolean;
  /** Answer only from a saved version (the caller can pay only the cached price); never fetch. */
  savedOnly?: boolean;
  fetch: () => Promise<T>;
  /** Announced after each fetch; the helper adds provider, versionId and fetchedAt. */
  event: E;
  eventData: (data: T) => OwnEventData<E>;
}

export interface ServedVersion<T> {
  version: VersionDoc<T>;
  /** True when a saved version answered and YouTube was not asked. */
  cached: boolean;
}

/**
 * The rule of every provider read (ADR 0007): the latest saved version answers, whatever its age,
 * unless a refresh is asked for; a fetch is saved as a new version and announced beside the answer
 * (ADR 0040). A failed fetch is an error, never an older version passed off as fresh.
 */
export function createVersionedReads(deps: { versions: VersionsRepo; bus: EventBus; logger: Logger }) {
  const { versions, logger } = deps;
  const announcer = createAnnouncer(deps.bus);
  return {
    async read<T, E extends EventDefinition>(spec: VersionedRead<T, E>): Promise<ServedVersion<T>> {
      if (!spec.refresh) {
        const saved = await versions.latest<T>(spec.kind, spec.key);
        if (saved) return { version: saved, cached: true };
        if (spec.savedOnly) throw new AppError('INSUFFICIENT_CREDITS', 'Nothing saved answers this read, and fetching it costs more.');
      }
      let data: T;
      try {
        // A client span per read of YouTube, under the request's (ADR 0117).
        data = await inSpan(
          `youtube ${spec.kind}`,
          { kind: 'client', parent: spec.request.trace, attributes: youtubeAttributes },
          spec.fetch,
        );
      } catch (error) {
        throw toAppError(error, spec.request);
      }
      const version = await versions.save(spec.kind, spec.key, data);
      const event = { provider: 'youtube', versionId: version._id, fetchedAt: version.fetchedAt, ...spec.eventData(data) } as EventData<E>;
      announcer.announce(
        spec.event,
        event,
        (err) => {
          // The caller paid for this fetch and it is saved; a lost announcement must not fail it.
          logger.error(
            { err, event: spec.event.type, versionId: version._id, ...requestLogFields(spec.request) },
            'fetched version saved but its event was not published',
          );
        },
        { requestId: spec.request.requestId, trace: spec.request.trace },
      );
      return { version, cached: false };
    },

    settled: announcer.settled,
  };
}

export type VersionedReads = ReturnType<typeof createVersionedReads>;
