import { z } from 'zod';
import { uint } from './shapes';
import { accountIdSchema, accountListInput, scopeSchema } from './billing';
import { listPage, listQuery } from './lists';

/*
 * Web and CLI sessions (ADR 0034). Billing stores them; the gateway authenticates with them.
 * The token prefixes are decided here, once: the gateway routes a bearer token by its prefix, so an
 * API key (`aty_`), a web session (`ats_`) and a CLI session (`atc_`) can never be mistaken.
 */
export const webSessionTokenPrefix = 'ats_';
export const cliSessionTokenPrefix = 'atc_';
/** Longest token any scheme accepts; longer values are refused without a lookup. */
export const maxSessionTokenLength = 200;
/** The longest a session or an OAuth grant may last: 400 days. */
export const maxSessionTtlSeconds = 400 * 86_400;
export const maxSessionTtlMs = maxSessionTtlSeconds * 1000;

export const sessionKindSchema = z.enum(['web', 'cli', 'oauth']);
export type SessionKind = z.infer<typeof sessionKindSchema>;

const sessionTokenSchema = z.string().min(1).max(maxSessionTokenLength);
const sessionIdSchema = z.string().min(1).max(64);

/* Internal procedure I/O of the billing service. */

export const createSessionInputSchema = z.strictObject({
  accountId: accountIdSchema,
  kind: sessionKindSchema,
  /** null: the owner (web sessions). A CLI session carries the scopes its user approved. */
  scopes: z.array(scopeSchema).min(1).nullable(),
  ttlMs: z.number().int().min(1000).max(maxSessionTtlMs),
  userAgent: z.string().max(500).nullable().default(null),
  ip: z.string().max(100).nullable().default(null),
  label: z.string().max(200).nullable().default(null),
});
export const createdSessionSchema = z.object({
  sessionId: z.string(),
  /** The secret token: returned here once; only its hash is stored. */
  token: z.string(),
  expiresAt: z.iso.datetime(),
  /** Web sessions only: the session's CSRF token (stable for the session's life, across rotations). */
  csrfToken: z.string().nullable(),
});

export const verifySessionInputSchema = z.strictObject({
  token: sessionTokenSchema,
  /** A web session's current token older than this is due for rotation (`rotate: true`). */
  rotateAfterMs: uint().optional(),
});
export const verifiedSessionSchema = z
  .object({
    sessionId: z.string(),
    accountId: z.string(),
    kind: sessionKindSchema,
    scopes: z.array(scopeSchema).nullable(),
    csrfToken: z.string().nullable(),
    expiresAt: z.iso.datetime(),
    /** The caller should swap this token for a new one (`sessions.rotate`). */
    rotate: z.boolean(),
  })
  .nullable();
export type VerifiedSession = NonNullable<z.infer<typeof verifiedSessionSchema>>;

export const rotateSessionInputSchema = z.strictObject({
  sessionId: sessionIdSchema,
  token: sessionTokenSchema,
  /** How long the replaced token keeps working, so requests already in flight with it succeed. */
  graceMs: uint().max(600_000),
});
/** null when the token was no longer the session's current one (another request rotated it first) or the session ended. */
export const rotatedSessionSchema = z.object({ token: z.string(), expiresAt: z.iso.datetime() }).nullable();

export const sessionSummarySchema = z.object({
  id: z.string(),
  kind: sessionKindSchema,
  scopes: z.array(scopeSchema).nullable().describe('null: the account owner (web sessions act with every scope).'),
  createdAt: z.iso.datetime(),
  expiresAt: z.iso.datetime(),
  lastRotatedAt: z.iso.datetime(),
  userAgent: z.string().nullable(),
  ip: z.string().nullable(),
  label: z.string().nullable(),
});
export type SessionSummary = z.infer<typeof sessionSummarySchema>;
export const sessionSummaryPageSchema = listPage(sessionSummarySchema, 'SessionSummaryPage');

/** A session as the public API lists it: its `kind` named as `GET /v1/auth/session` names the credential (ADR 0092). */
export const sessionSchema = sessionSummarySchema
  .extend({
    kind: z
      .enum(['session_cookie', 'cli_session', 'oauth'])
      .describe('Before ADR 0092: `web` and `cli`. `oauth`: a grant of the OAuth authorization server (ADR 0095).'),
    scopes: z.array(scopeSchema).describe('What the session may do (a web session: every scope).'),
    current: z.boolean(),
  })
  .meta({ id: 'Session' });
/** The public name of each stored session kind. */
export const sessionCredentialKinds = { web: 'session_cookie', cli: 'cli_session', oauth: 'oauth' } as const satisfies Record<
  SessionKind,
  string
>;
export const sessionListSchema = listPage(sessionSchema, 'SessionList');

/* Each public operation's input (issue 38); billing's procedure for the same call extends it with the account. */

export const getAuthSessionInput = z.strictObject({});
export const listAuthSessionsInput = listQuery().strict();
export const deleteAuthSessionInput = z.strictObject({ sessionId: sessionIdSchema });

export const listSessionsInputSchema = accountListInput();
export const revokeSessionInputSchema = deleteAuthSessionInput.extend({ accountId: accountIdSchema });
export const revokeAllSessionsInputSchema = z.strictObject({
  accountId: accountIdSchema,
  /** Keep this one (e.g. "sign out everywhere else"). */
  exceptSessionId: sessionIdSchema.optional(),
});
