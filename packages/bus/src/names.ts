import type { EventDefinition, ServiceName } from '@vrs/contracts';

/**
 * Every name the bus puts on a shared nats-server carries the namespace, so environments sharing
 * one server (test runs, `npm start`, CI) never see each other's streams, consumers or buckets.
 */
const namePattern = /^[A-Za-z0-9_-]+$/;
/** KV bucket suffixes exclude `_` so `<ns>_<bucket>` splits unambiguously at its last `_`. */
const bucketSuffixPattern = /^[A-Za-z0-9-]+$/;

function assertName(kind: string, value: string, pattern = namePattern, allowed = 'letters, digits, _ and -'): string {
  if (!pattern.test(value)) {
    throw new Error(`Invalid ${kind} ${JSON.stringify(value)}: it must be non-empty and use only ${allowed}`);
  }
  return value;
}

export function assertNamespace(namespace: string): string {
  return assertName('NATS namespace', namespace);
}

/** Wire subject of an event: `<ns>.<service>.<aggregate>.<pastTense>`. */
export function subjectFor(namespace: string, definition: EventDefinition): string {
  return `${assertNamespace(namespace)}.${definition.type}`;
}

/** One stream per producing service. The namespace keeps its case: upper-casing would merge `dev` and `DEV`. */
export function streamNameFor(namespace: string, service: ServiceName): string {
  return `${assertNamespace(namespace)}_${service}`;
}

export function streamSubjectsFor(namespace: string, service: ServiceName): string[] {
  return [`${assertNamespace(namespace)}.${service}.>`];
}

/**
 * The namespace's dead-letter stream; named and subjected like a service stream of a service called
 * `dead-letters`, so deleteNamespace removes it with the rest.
 */
export function deadLetterStreamNameFor(namespace: string): string {
  return `${assertNamespace(namespace)}_dead-letters`;
}

export function deadLetterSubjectsFor(namespace: string): string[] {
  return [`${assertNamespace(namespace)}.dead-letters.>`];
}

/** Subject of one consumer's dead letters (or of every consumer's, with `*`). */
export function deadLetterSubjectFor(namespace: string, consumer: string): string {
  return `${assertNamespace(namespace)}.dead-letters.${consumer === '*' ? '*' : assertConsumerName(consumer)}`;
}

export function assertConsumerName(consumer: string): string {
  return assertName('consumer name', consumer);
}

export function durableNameFor(namespace: string, consumer: string): string {
  return `${assertNamespace(namespace)}_${assertConsumerName(consumer)}`;
}

export function kvBucketNameFor(namespace: string, bucket: string): string {
  return `${assertNamespace(namespace)}_${assertName('KV bucket', bucket, bucketSuffixPattern, 'letters, digits and -')}`;
}

/**
 * Whether a stream was created by this package for `namespace`: an event stream (name and subjects
 * both match) or the stream behind one of its KV buckets. Matching on subjects as well as names keeps
 * `deleteNamespace('a')` away from the streams of namespace `a_b`.
 */
export function belongsToNamespace(stream: { name: string; subjects?: string[] }, namespace: string): boolean {
  assertNamespace(namespace);
  const subjects = stream.subjects ?? [];
  const kvPrefix = `KV_${namespace}_`;
  if (stream.name.startsWith(kvPrefix)) {
    const bucket = stream.name.slice('KV_'.length);
    return bucketSuffixPattern.test(stream.name.slice(kvPrefix.length)) && subjects.includes(`$KV.${bucket}.>`);
  }
  const eventPrefix = `${namespace}_`;
  if (!stream.name.startsWith(eventPrefix)) return false;
  const service = stream.name.slice(eventPrefix.length);
  return subjects.length === 1 && subjects[0] === `${namespace}.${service}.>`;
}
