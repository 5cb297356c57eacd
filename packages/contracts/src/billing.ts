import { z } from 'zod';
import { listPage, listQuery } from './lists';

/** Permissions an API key can hold. `account:access` reaches account data; `data:read` reads research data. */
export const scopeSchema = z.enum(['data:read', 'data:write', 'account:access', 'account:manage']);
export type Scope = z.infer<typeof scopeSchema>;
export const allScopes: Scope[] = ['data:read', 'data:write', 'account:access'];

export const accountIdSchema = z.string().min(1).max(64);

/** Internal procedure input of a list (ADR 0020): the account, and the public paging parameters. */
export const accountListInput = () => listQuery().extend({ accountId: accountIdSchema });

export const planSchema = z.enum(['free', 'pro', 'team']);
export const subscriptionStatusSchema = z.enum(['none', 'trialing', 'active', 'past_due', 'canceled']);

export const billingStatusSchema = z
  .object({
    accountId: z.string(),
    plan: planSchema,
    subscription: z.object({
      status: subscriptionStatusSchema,
      currentPeriodEnd: z.iso.datetime().nullable(),
    }),
    credits: z.object({
      balance: z.number().int().describe('Credits available now.'),
      reserved: z.number().int().min(0).describe('Credits held by operations in progress.'),
      granted: z.number().int().min(0).describe('Credits granted since the account was opened.'),
      spent: z.number().int().min(0).describe('Credits settled by completed operations.'),
    }),
  })
  .meta({ id: 'BillingStatus' });
export type BillingStatus = z.infer<typeof billingStatusSchema>;

export const ledgerEntryKindSchema = z.enum(['grant', 'reserve', 'settle', 'refund']);
export const ledgerEntrySchema = z
  .object({
    id: z.string(),
    kind: ledgerEntryKindSchema,
    amount: z
      .number()
      .int()
      .describe('Signed change to the balance: negative debits, positive credits; 0 for a settle that only confirms.'),
    operation: z.string().nullable(),
    reservationId: z.string().nullable(),
    requestId: z.string().nullable(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'LedgerEntry' });
export type LedgerEntry = z.infer<typeof ledgerEntrySchema>;

export const ledgerPageSchema = listPage(ledgerEntrySchema, 'LedgerPage');

/* Internal procedure I/O of the billing service. */

export const createAccountInputSchema = z.object({
  name: z.string().trim().min(1).max(200).optional(),
  initialCredits: z.number().int().min(0).optional(),
});
export const ensureDemoAccountInputSchema = z.object({ demoUser: z.string().trim().min(1).max(200) });
export const accountRefSchema = z.object({ accountId: accountIdSchema });

export const createApiKeyInputSchema = z.object({
  accountId: accountIdSchema,
  name: z.string().trim().min(1).max(100).default('default'),
  scopes: z.array(scopeSchema).min(1).default(allScopes),
});
export const createdApiKeySchema = z.object({
  id: z.string(),
  key: z.string().describe('The secret key. Shown once; only its hash is stored.'),
  prefix: z.string(),
  scopes: z.array(scopeSchema),
});
export const verifyApiKeyInputSchema = z.object({ key: z.string().min(1).max(200) });
export const verifiedApiKeySchema = z.object({ accountId: z.string(), keyId: z.string(), scopes: z.array(scopeSchema) }).nullable();

export const reserveCreditsInputSchema = z.object({
  accountId: accountIdSchema,
  amount: z.number().int().min(0),
  operation: z.string().min(1).max(100),
  requestId: z.string().max(200).optional(),
});
export const reservationSchema = z.object({ reservationId: z.string(), balance: z.number().int() });
export const settleCreditsInputSchema = z.object({
  reservationId: z.string().min(1),
  /** What the operation really cost; at most what was reserved. The difference is returned. */
  amount: z.number().int().min(0),
});
export const settlementSchema = z.object({ charged: z.number().int(), balance: z.number().int() });
export const refundCreditsInputSchema = z.object({ reservationId: z.string().min(1) });
export const refundSchema = z.object({ refunded: z.number().int(), balance: z.number().int() });

export const listLedgerInputSchema = accountListInput();
