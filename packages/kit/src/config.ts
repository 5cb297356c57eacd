import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { basename, dirname, join, resolve } from 'node:path';
import { z } from 'zod';

const here = dirname(fileURLToPath(import.meta.url));
/** This file lives in packages/kit/src, or bundled (`npm run build`) in dist/ one level below the root. */
export const repoRoot = basename(here) === 'dist' ? resolve(here, '..') : resolve(here, '../../..');
/** Where `npm start` keeps its state unless DATA_DIR says otherwise. */
export const defaultDataDir = join(repoRoot, '.data');

/** Raised when the environment does not satisfy a config schema; names every bad variable. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

export const booleanFromEnv = z.enum(['true', 'false', '1', '0']).transform((value) => value === 'true' || value === '1');

/** Env vars shared by every process: how services find each other, their stores and the bus. */
export const baseEnvShape = {
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  SERVICES_MODE: z.enum(['inprocess', 'http']).default('inprocess'),
  INTERNAL_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  /** Named internal clients (ADR 0098): a JSON array of `{name, sha256, allow, readOnly?}`, fixed for the process's life. */
  INTERNAL_CLIENTS: z.string().optional(),
  /** A file holding such an array, read again when it changes: a client is added or revoked without a restart. */
  INTERNAL_CLIENTS_FILE: z.string().optional(),
  DATA_DIR: z.string().min(1).default(defaultDataDir),
  MONGODB_URL: z
    .string()
    .regex(/^mongodb(\+srv)?:\/\//, 'must be a mongodb:// or mongodb+srv:// URL')
    .optional(),
  /** Embedded store commits: `normal` survives kill -9 of the process, `full` also power loss (an fsync per commit). */
  STORE_SYNCHRONOUS: z.enum(['normal', 'full']).default('normal'),
  /** One server, or a cluster's nodes separated by commas (the client fails over between them). */
  NATS_URL: z.string().min(1).default('nats://127.0.0.1:4222'),
  /** Copies of every stream and KV bucket: 1 on one server; 3 on a 3-node cluster, so one node's loss loses nothing. */
  NATS_STREAM_REPLICAS: z.coerce.number().int().min(1).max(5).default(1),
  /** Unset: derived from where the state lives (see `defaultNamespaceOf`), so two instances never share events. */
  NATS_NAMESPACE: z.string().regex(/^[A-Za-z0-9_-]{1,32}$/, 'must be 1-32 characters of A-Z, a-z, 0-9, _ or -'),
  BUS_ACK_WAIT_MS: z.coerce.number().int().min(100).default(30_000),
  BUS_MAX_DELIVER: z.coerce.number().int().min(1).default(10),
  BILLING_SERVICE_URL: z.url().default('http://127.0.0.1:4101'),
  RESEARCH_SERVICE_URL: z.url().default('http://127.0.0.1:4102'),
  PROVIDER_SERVICE_URL: z.url().default('http://127.0.0.1:4103'),
  TRENDS_SERVICE_URL: z.url().default('http://127.0.0.1:4104'),
  MONITORING_SERVICE_URL: z.url().default('http://127.0.0.1:4106'),
  /**
   * How long a call to another service may take before it is abandoned (a 503 SERVICE_UNAVAILABLE
   * to its caller). Long enough for the slowest operation (an answer through both models, a
   * 5000-comment collection), short enough that a hung service never holds a request for ever.
   */
  SERVICE_CALL_TIMEOUT_MS: z.coerce.number().int().min(100).default(120_000),
  AGENTS_SERVICE_URL: z.url().default('http://127.0.0.1:4105'),
  /** Port a service process listens on; defaults to the port of its own *_SERVICE_URL. 0 picks a free port. */
  SERVICE_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  HOST: z.string().default('127.0.0.1'),
  /**
   * HTTP servers start requests from a queue, in arrival order, this many milliseconds of them per
   * event-loop turn (ADR 0047). 0 starts each in the read of its socket, as Node does.
   */
  REQUEST_TURN_BUDGET_MS: z.coerce.number().min(0).max(1_000).default(1),
} as const;

export const baseEnvSchema = z.object(baseEnvShape);
export type BaseConfig = z.infer<typeof baseEnvSchema>;

/**
 * The bus namespace of an instance whose state lives in MongoDB at `mongodbUrl`, or else in the
 * embedded store under `dataDir`: processes sharing state share events, and a second checkout or
 * `DATA_DIR` on the same nats-server gets streams and consumers of its own.
 */
export function defaultNamespaceOf(state: { mongodbUrl?: string; dataDir: string }): string {
  const location = state.mongodbUrl ?? `file:${resolve(state.dataDir)}`;
  return `vrs-${createHash('sha256').update(location).digest('hex').slice(0, 12)}`;
}

/** Parses the environment with a zod schema; a bad value stops start-up with a message naming the variable. */
export function loadConfig<S extends z.ZodObject>(schema: S, env: NodeJS.ProcessEnv = process.env): z.infer<S> {
  const cleaned: Record<string, string | undefined> = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
  if ('NATS_NAMESPACE' in schema.shape && cleaned.NATS_NAMESPACE === undefined) {
    cleaned.NATS_NAMESPACE = defaultNamespaceOf({ mongodbUrl: cleaned.MONGODB_URL, dataDir: cleaned.DATA_DIR ?? defaultDataDir });
  }
  const result = schema.safeParse(cleaned);
  if (result.success) {
    const config = result.data as z.infer<S> & Partial<BaseConfig>;
    if (config.SERVICES_MODE === 'http' && !config.INTERNAL_TOKEN) {
      throw new ConfigError(['INTERNAL_TOKEN: required when SERVICES_MODE=http (services refuse calls without it)']);
    }
    return config;
  }
  throw new ConfigError(result.error.issues.map((issue) => `${issue.path.join('.') || '(env)'}: ${issue.message}`));
}
