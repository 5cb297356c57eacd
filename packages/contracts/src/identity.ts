import { z } from 'zod';
import { accountIdSchema, scopeSchema } from './billing';
import { planSchema } from './plans';

/*
 * Email sign-in and the account (ADR 0034). An address is stored trimmed and lower-cased; the
 * codes of a bad address or password are their own (EMAIL_INVALID, PASSWORD_TOO_WEAK).
 */
export const minPasswordLength = 10;
export const maxPasswordLength = 200;

export const emailSchema = z
  .string()
  .trim()
  .max(254)
  .pipe(z.email())
  .transform((email) => email.toLowerCase());
export const passwordSchema = z.string().min(minPasswordLength).max(maxPasswordLength);
export const accountNameSchema = z.string().trim().min(1).max(200);

/** The account as its owner sees it (`GET /v1/account`). */
export const accountSchema = z
  .object({
    id: z.string(),
    email: z.string().nullable().describe('null for accounts made by a script or demo user.'),
    name: z.string().nullable(),
    verified: z.boolean().describe('The email address was confirmed by its emailed link.'),
    plan: planSchema,
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'Account' });
export type Account = z.infer<typeof accountSchema>;

/* Each public operation's input (issue 38); billing's procedure for the same call extends it with the account. */

export const getAccountInput = z.strictObject({});
export const updateAccountInput = z.strictObject({ name: accountNameSchema.nullable().describe('The display name; null clears it.') });
export const deleteAccountInput = z.strictObject({});

/* Internal procedure I/O of the billing service. */

export const signUpInputSchema = z.strictObject({ email: emailSchema, password: passwordSchema, name: accountNameSchema.optional() });
/**
 * `created`: a new account. Otherwise the address was taken: `verificationToken` is set when that
 * account is still unverified (the link is sent again), null when it is verified (its owner is told).
 */
export const signUpResultSchema = z.object({
  accountId: z.string(),
  created: z.boolean(),
  verificationToken: z.string().nullable(),
});

export const signInInputSchema = z.strictObject({ email: emailSchema, password: z.string().max(maxPasswordLength) });
/** A correct password of an unverified account comes back with a fresh verification link to send. */
export const signInResultSchema = z.object({
  accountId: z.string(),
  verified: z.boolean(),
  verificationToken: z.string().nullable(),
});

export const linkTokenInputSchema = z.strictObject({ token: z.string().min(1).max(200) });
export const passwordResetRequestSchema = z.strictObject({ email: emailSchema });
export const passwordResetIssuedSchema = z.object({ accountId: z.string(), token: z.string() }).nullable();
export const resetPasswordInputSchema = z.strictObject({
  token: z.string().min(1).max(200),
  password: passwordSchema,
  /** Also revoke every API key of the account (they survive a reset otherwise). */
  revokeApiKeys: z.boolean().default(false),
});

export const getAccountInputSchema = getAccountInput.extend({ accountId: accountIdSchema });
export const updateAccountInputSchema = updateAccountInput.extend({ accountId: accountIdSchema });
export const deleteAccountInputSchema = deleteAccountInput.extend({ accountId: accountIdSchema });

/** `GET /v1/auth/session`: who is calling, with which credential and scopes. */
export const credentialKindSchema = z.enum(['api_key', 'session_cookie', 'cli_session', 'oauth', 'demo_user']);
export const authSessionSchema = z
  .object({
    account: z.object({ id: z.string(), email: z.string().nullable(), name: z.string().nullable() }),
    credential: z.object({
      kind: credentialKindSchema,
      id: z.string().nullable().describe('The API key or session id; null for a demo user.'),
    }),
    scopes: z.array(scopeSchema).describe('What this credential may do (the owner: every scope).'),
    csrfToken: z
      .string()
      .optional()
      .describe('Only when authenticated by the session cookie: send it as X-CSRF-Token on requests that change something.'),
  })
  .meta({ id: 'AuthSession' });
