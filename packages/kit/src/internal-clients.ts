import { createHash, randomBytes } from 'node:crypto';
import { readFileSync, unwatchFile, watchFile, type Stats } from 'node:fs';
import { z } from 'zod';
import { ConfigError } from './config';
import type { Logger } from './logger';

export type ProcedureKind = 'query' | 'mutation' | 'subscription';

const allowPattern = /^(\*|[A-Za-z0-9]+(\.[A-Za-z0-9]+)*(\.\*)?)$/;

const clientSchema = z
  .object({
    name: z.string().regex(/^[a-z0-9][a-z0-9._-]{0,63}$/, 'must be 1-64 characters of a-z, 0-9, ., _ or -'),
    /** Hex SHA-256 of the secret the client sends as X-Internal-Token. */
    sha256: z.string().regex(/^[0-9a-f]{64}$/, 'must be the secret’s SHA-256 in lower-case hex'),
    /** `*`, `<service>.*`, `<service>.<router>.*` or one procedure `<service>.<router>.<procedure>`. */
    allow: z.array(z.string().regex(allowPattern, 'must be *, <service>.*, or a procedure path (optionally ending in .*)')).min(1),
    /** Queries only: a mutation is refused whatever `allow` says. */
    readOnly: z.boolean().default(false),
  })
  .strict();

/**
 * Named internal credentials (ADR 0098): a team's script, a tool, another system calling the
 * services' tRPC procedures with a secret of its own, limited to the procedures its entry allows,
 * named in the log of each of its calls. Only the secret's SHA-256 is configured.
 */
export type InternalClient = z.infer<typeof clientSchema>;

const clientsSchema = z.array(clientSchema).superRefine((clients, context) => {
  const seen = new Set<string>();
  for (const [index, client] of clients.entries()) {
    for (const key of [`name ${client.name}`, `sha256 ${client.sha256}`]) {
      if (seen.has(key)) context.addIssue({ code: 'custom', path: [index], message: `two entries have the same ${key.split(' ')[0]}` });
      seen.add(key);
    }
  }
});

/** Parses a JSON array of client entries; `source` names where it came from in the error. */
export function parseInternalClients(text: string, source: string): InternalClient[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ConfigError([`${source}: not JSON (${(error as Error).message})`]);
  }
  const result = clientsSchema.safeParse(json);
  if (!result.success) throw new ConfigError(result.error.issues.map((issue) => `${source}[${issue.path.join('.')}]: ${issue.message}`));
  return result.data;
}

export function sha256Hex(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** A fresh secret for a new client: 32 random bytes, recognisable by its prefix in a leaked file. */
export function newInternalSecret(): string {
  return `vrsi_${randomBytes(32).toString('base64url')}`;
}

/** Whether `client` may call `path` (the procedure's path in `service`'s router) of kind `kind`. */
export function clientAllows(client: InternalClient, service: string, path: string, kind: ProcedureKind): boolean {
  if (client.readOnly && kind !== 'query') return false;
  const full = `${service}.${path}`;
  return client.allow.some(
    (pattern) => pattern === '*' || pattern === full || (pattern.endsWith('.*') && full.startsWith(pattern.slice(0, -1))),
  );
}

export interface InternalClientsSource {
  /** INTERNAL_CLIENTS: the JSON array itself (fixed for the life of the process). */
  inline?: string;
  /** INTERNAL_CLIENTS_FILE: a file holding the JSON array, read again when it changes. */
  file?: string;
}

export interface InternalClients {
  /** The client whose secret this is, if any. */
  identify(secret: string | undefined): InternalClient | undefined;
  close(): void;
}

/** How often the credentials file's modification time is looked at (a stat; no read unless it changed). */
const fileCheckIntervalMs = 2_000;

/**
 * Loads the configured clients; a bad list stops start-up (ConfigError). The file is watched: an
 * edit (a client added or revoked) takes effect within about two seconds without a restart; an edit
 * that does not parse is logged and the previous list kept.
 */
export function openInternalClients(source: InternalClientsSource, logger: Logger): InternalClients {
  const fixed = source.inline ? parseInternalClients(source.inline, 'INTERNAL_CLIENTS') : [];
  const readFile = (file: string) => {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      throw new ConfigError([`INTERNAL_CLIENTS_FILE: cannot read ${file} (${(error as Error).message})`]);
    }
    return parseInternalClients(text, 'INTERNAL_CLIENTS_FILE');
  };
  const index = (clients: InternalClient[]) => {
    const all = [...fixed, ...clients];
    parseInternalClients(
      JSON.stringify(all),
      source.inline && source.file ? 'INTERNAL_CLIENTS + INTERNAL_CLIENTS_FILE' : 'INTERNAL_CLIENTS',
    );
    return new Map(all.map((client) => [client.sha256, client]));
  };
  let bySecretHash = index(source.file ? readFile(source.file) : []);
  const file = source.file;
  const reload = (current: Stats, previous: Stats) => {
    if (current.mtimeMs === previous.mtimeMs && current.size === previous.size) return;
    try {
      bySecretHash = index(readFile(file as string));
      logger.info({ file, clients: [...bySecretHash.values()].map((client) => client.name) }, 'internal clients reloaded');
    } catch (error) {
      logger.error({ file, err: error }, 'internal clients file not reloaded: the previous list stays in force');
    }
  };
  if (file) watchFile(file, { interval: fileCheckIntervalMs, persistent: false }, reload);
  return {
    identify: (secret) => (secret ? bySecretHash.get(sha256Hex(secret)) : undefined),
    close: () => {
      if (file) unwatchFile(file, reload);
    },
  };
}
