import { z } from 'zod';
import { uint } from './shapes';
import { listPage, listQuery } from './lists';
import { planDefinitionSchema, planSchema } from './plans';
import { currentStateName } from './vocabulary';

/**
 * Permissions an API key or CLI session can hold (ADR 0031); `operationScopes` in `scopes.ts` says
 * which each operation needs. A session cookie or demo user acts as the owner and holds them all.
 */
export const allScopes = [
  'data:read',
  'data:write',
  'account:access',
  'billing:read',
  'account:manage',
  'agents:run',
  'monitors:write',
] as const;
export const scopeSchema = z.enum(allScopes);
export type Scope = z.infer<typeof scopeSchema>;

export const accountIdSchema = z.string().min(1).max(64);

/** Internal procedure input of a list (ADR 0020): the account, and the public paging parameters. */
export const accountListInput = () => listQuery().extend({ accountId: accountIdSchema }).strict();

/**
 * `active`, `past_due` (payment missing: no renewal grant until active again) and `cancelled` (the
 * plan runs to the period end, then the account is on free) are in use (ADR 0032); `none` is an
 * account opened before subscriptions existed, until the renewal sweeper gives it a period, and
 * `trialing` is kept for a payment provider.
 */
export const subscriptionStatusSchema = z.enum(['none', 'trialing', 'active', 'past_due', 'cancelled']);
/** The statuses an operator may set (the others are reached by the system). */
export const settableSubscriptionStatusSchema = z
  .enum(['active', 'past_due', 'cancelled', 'canceled'])
  .describe('`canceled`, the name before ADR 0092, is read as `cancelled` until 2027-06-30.')
  .transform((status) => currentStateName<'active' | 'past_due' | 'cancelled'>(status));
export type SettableSubscriptionStatus = z.infer<typeof settableSubscriptionStatusSchema>;

export const billingStatusSchema = z
  .object({
    accountId: z.string(),
    plan: planSchema,
    subscription: z.object({
      status: subscriptionStatusSchema,
      currentPeriodStart: z.iso
        .datetime()
        .nullable()
        .describe('Start of the current billing period (UTC); null before the account has one.'),
      currentPeriodEnd: z.iso
        .datetime()
        .nullable()
        .describe(
          'End of the current period: the next renewal. Periods keep the day of month the account was opened on, clamped to the month end.',
        ),
      cancelAtPeriodEnd: z.boolean().describe('True when the plan ends with the current period and the account then moves to free.'),
    }),
    planLimits: planDefinitionSchema.pick({ monthlyCredits: true, rateLimit: true }).describe('What the current plan gives.'),
    credits: z.object({
      balance: z.number().int().describe('Credits available now.'),
      reserved: uint().describe('Credits held by operations in progress.'),
      granted: uint().describe('Credits granted since the account was opened.'),
      spent: uint().describe('Credits settled by completed operations.'),
    }),
  })
  .meta({ id: 'BillingStatus' });
export type BillingStatus = z.infer<typeof billingStatusSchema>;

/**
 * `grant` adds credits; `charge` is what one request (or job) of `operation` was charged; `refund`
 * gives a charge back. Holds of operations in progress are not lines (they show as `reserved` in
 * the status) (ADR 0083). `reserve` and `settle` are lines written before ADR 0083: a hold, and what
 * its settle returned of it.
 */
export const ledgerEntryKindSchema = z.enum(['grant', 'charge', 'refund', 'reserve', 'settle']);
export const ledgerEntrySchema = z
  .object({
    id: z.string(),
    kind: ledgerEntryKindSchema,
    amount: z.number().int().describe('Signed change to the balance: negative debits (a charge), positive credits (a grant, a refund).'),
    operation: z.string().nullable().describe('The operation charged or refunded (its operation id); null for a grant.'),
    reservationId: z.string().nullable(),
    requestId: z.string().nullable().describe('The request charged: its X-Request-Id.'),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'LedgerEntry' });
export type LedgerEntry = z.infer<typeof ledgerEntrySchema>;

export const ledgerPageSchema = listPage(ledgerEntrySchema, 'LedgerPage');

/* Each public operation's input (issue 38); billing's procedure for the same call extends it with the account. */

export const getBillingStatusInput = z.strictObject({});
export const listLedgerEntriesInput = listQuery().strict();

/* Internal procedure I/O of the billing service: accounts. */

export const createAccountInputSchema = z.strictObject({
  name: z.string().trim().min(1).max(200).optional(),
  initialCredits: uint().optional(),
});
export const ensureDemoAccountInputSchema = z.strictObject({ demoUser: z.string().trim().min(1).max(200) });
/** What an account operation answers: the account it acted on. */
export const accountRefSchema = z.object({ accountId: accountIdSchema });
export const getBillingStatusInputSchema = getBillingStatusInput.extend({ accountId: accountIdSchema });

/* API keys (ADR 0031). */

/** How far ahead a key's `expiresAt` may be; a key without one does not expire. */
export const maxApiKeyLifetimeMs = 366 * 24 * 60 * 60_000;
/** Active (not revoked, not expired) keys one account may hold. */
export const maxActiveApiKeysPerAccount = 100;

export const apiKeySchema = z
  .object({
    id: z.string(),
    prefix: z.string().describe('The first characters of the key, to tell keys apart.'),
    name: z.string(),
    scopes: z.array(scopeSchema),
    createdAt: z.iso.datetime(),
    expiresAt: z.iso.datetime().nullable().describe('When the key stops working; null: never.'),
    lastUsedAt: z.iso
      .datetime()
      .nullable()
      .describe('When the key last authenticated a request, recorded within a minute or so (API_KEY_USE_FLUSH_INTERVAL_MS); null: never.'),
  })
  .meta({ id: 'ApiKey' });
export type ApiKey = z.infer<typeof apiKeySchema>;

export const createdApiKeySchema = apiKeySchema
  .extend({ key: z.string().describe('The secret key (`aty_…`). Shown in this response only; only its hash is stored.') })
  .meta({ id: 'CreatedApiKey' });
export const apiKeyListSchema = listPage(apiKeySchema, 'ApiKeyList');

const distinctScopes = z
  .array(scopeSchema)
  .min(1)
  .refine((scopes) => new Set(scopes).size === scopes.length, 'must not name a scope twice');

export const createApiKeyInput = z.strictObject({
  name: z.string().trim().min(1).max(100),
  scopes: distinctScopes.describe('What the key may do: a non-empty subset of the scopes, each once.'),
  expiresAt: z.iso
    .datetime({ offset: true })
    .refine((at) => Date.parse(at) > Date.now(), 'must be in the future')
    .refine((at) => Date.parse(at) <= Date.now() + maxApiKeyLifetimeMs, 'must be at most 366 days ahead')
    .optional()
    .describe('When the key stops working (ISO 8601, in the future, at most 366 days ahead). Without it the key works until deleted.'),
});

export const listApiKeysInput = listQuery().strict();
export const deleteApiKeyInput = z.strictObject({ id: z.string().min(1).max(100) });

/* Internal procedure I/O of the billing service. */

export const createApiKeyInputSchema = createApiKeyInput.extend({
  accountId: accountIdSchema,
  // The operator script names keys and grants every scope unless told otherwise.
  name: z.string().trim().min(1).max(100).default('default'),
  scopes: distinctScopes.default([...allScopes]),
});
export const verifyApiKeyInputSchema = z.strictObject({ key: z.string().min(1).max(200) });
/** Null for a key that does not exist or was revoked; an expired key says so, so the caller can say so too. */
export const verifiedApiKeySchema = z
  .discriminatedUnion('status', [
    z.object({
      status: z.literal('valid'),
      accountId: z.string(),
      keyId: z.string(),
      scopes: z.array(scopeSchema),
      expiresAt: z.iso.datetime().nullable(),
    }),
    z.object({ status: z.literal('expired'), keyId: z.string(), expiresAt: z.iso.datetime() }),
  ])
  .nullable();
export type VerifiedApiKey = z.infer<typeof verifiedApiKeySchema>;
export const listApiKeysInputSchema = listApiKeysInput.extend({ accountId: accountIdSchema });
/** deleteApiKey: the gateway names the path's `id` a key id. */
export const revokeApiKeyInputSchema = z.strictObject({ accountId: accountIdSchema, keyId: z.string().min(1).max(100) });
/** Last uses the gateway noted, sent in batches: each key's lastUsedAt becomes the later of its own and `at`. */
export const touchApiKeysInputSchema = z.strictObject({
  uses: z
    .array(z.object({ keyId: z.string().min(1).max(100), at: z.iso.datetime() }))
    .min(1)
    .max(1000),
});

export const reserveCreditsInputSchema = z.strictObject({
  accountId: accountIdSchema,
  amount: uint(),
  operation: z.string().min(1).max(100),
  requestId: z.string().max(200).optional(),
});
export const reservationSchema = z.object({ reservationId: z.string(), balance: z.number().int() });
export const settleCreditsInputSchema = z.strictObject({
  reservationId: z.string().min(1),
  /** What the operation really cost; at most what was reserved. The difference is returned. */
  amount: uint(),
});
export const settlementSchema = z.object({ charged: z.number().int(), balance: z.number().int() });
export const refundCreditsInputSchema = z.strictObject({ reservationId: z.string().min(1) });
export const refundSchema = z.object({ refunded: z.number().int(), balance: z.number().int() });

/** The most items one batched reserve or close carries (ADR 0083). */
export const maxCreditBatch = 500;
/** Many reservations in one call and one store transaction, each answered on its own (ADR 0083). */
export const reserveManyInputSchema = z.strictObject({ items: z.array(reserveCreditsInputSchema).min(1).max(maxCreditBatch) });
/** Why one item of a batch was refused: the code of the error a single call would have thrown, its message and details. */
const refusedItemSchema = z.object({
  ok: z.literal(false),
  code: z.string(),
  message: z.string(),
  details: z.record(z.string(), z.unknown()).optional(),
});
export const reserveManySchema = z.object({
  results: z.array(z.discriminatedUnion('ok', [reservationSchema.extend({ ok: z.literal(true) }), refusedItemSchema])),
});
/**
 * `settle` charges `amount` (at most what was held) as `credits.settle` does; `cancel` makes sure
 * the reservation ends uncharged: a held one is refunded, a settled one's charge is given back
 * (a settle whose answer never reached its caller, who answered its client "not charged").
 */
export const closeManyInputSchema = z.strictObject({
  items: z
    .array(
      z.discriminatedUnion('outcome', [
        z.object({ reservationId: z.string().min(1), outcome: z.literal('settle'), amount: uint() }),
        z.object({ reservationId: z.string().min(1), outcome: z.literal('cancel') }),
      ]),
    )
    .min(1)
    .max(maxCreditBatch),
});
export const closeManySchema = z.object({
  results: z.array(z.discriminatedUnion('ok', [settlementSchema.extend({ ok: z.literal(true) }), refusedItemSchema])),
});

export const listLedgerInputSchema = listLedgerEntriesInput.extend({ accountId: accountIdSchema });

export const setPlanInputSchema = z.strictObject({
  accountId: accountIdSchema,
  plan: planSchema,
  status: settableSubscriptionStatusSchema.default('active'),
});
/** `DELETE /v1/account` (ADR 0033): the account is deleted now; what it owns is removed by every service after. */
export const deletedAccountSchema = z
  .object({
    id: z.string(),
    status: z.literal('deleting').describe("Credentials are refused already; each service removes the account's data in the background."),
    deletedAt: z.iso.datetime(),
  })
  .meta({ id: 'DeletedAccount' });
