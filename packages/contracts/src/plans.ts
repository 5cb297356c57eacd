import { z } from 'zod';
import { uint } from './shapes';

/*
 * The plan catalogue (ADR 0032): the one description of what each plan gives, read by billing
 * (monthly credits, the catalogue it serves) and by the gateway (per-account rate limits).
 */

export const planIds = ['free', 'pro', 'team'] as const;
export const planSchema = z.enum(planIds);
export type PlanId = z.infer<typeof planSchema>;

export const listPlansInput = z.strictObject({});

/** The plan every account starts on, and falls back to when a paid plan is canceled. */
export const defaultPlanId: PlanId = 'free';

export const planDefinitionSchema = z
  .object({
    id: planSchema,
    name: z.string(),
    monthlyCredits: uint().describe(
      'Credits the balance is topped up to at the start of every billing period (unused credits do not stack).',
    ),
    rateLimit: z.object({
      requestsPerMinute: z.number().int().min(1).describe('Requests per minute per account, across every credential of the account.'),
    }),
    price: z
      .object({
        monthlyAmount: uint().describe('Price per month in the smallest unit of the currency (cents).'),
        currency: z.string().length(3).describe('ISO 4217 code, lower case.'),
      })
      .describe('Informational: no payment provider is connected yet; plans are changed by an operator.'),
    features: z.array(z.string()).describe('What the plan includes, for display.'),
  })
  .meta({ id: 'Plan' });
export type PlanDefinition = z.infer<typeof planDefinitionSchema>;
export type PlanCatalogue = Record<PlanId, PlanDefinition>;

/** The whole catalogue: three plans, cheapest first. Not a paged list: it is small and fixed. */
export const planListSchema = z
  .object({ data: z.array(planDefinitionSchema).describe('Every plan, cheapest first.') })
  .meta({ id: 'PlanList' });

const defaultPlans: PlanCatalogue = {
  free: {
    id: 'free',
    name: 'Free',
    monthlyCredits: 1000,
    rateLimit: { requestsPerMinute: 600 },
    price: { monthlyAmount: 0, currency: 'usd' },
    features: ['All read and research operations', 'API keys'],
  },
  pro: {
    id: 'pro',
    name: 'Pro',
    monthlyCredits: 20_000,
    rateLimit: { requestsPerMinute: 3000 },
    price: { monthlyAmount: 2900, currency: 'usd' },
    features: ['Everything in Free', '20× the monthly credits', '5× the request rate'],
  },
  team: {
    id: 'team',
    name: 'Team',
    monthlyCredits: 100_000,
    rateLimit: { requestsPerMinute: 12_000 },
    price: { monthlyAmount: 9900, currency: 'usd' },
    features: ['Everything in Pro', '100× the monthly credits', '20× the request rate'],
  },
};

/**
 * The catalogue, with rate limits replaced where the deployment configures them (tests use small
 * ones so a window fills quickly). Billing and the gateway call it with the same configuration.
 */
export function planCatalogue(requestsPerMinute: Partial<Record<PlanId, number>> = {}): PlanCatalogue {
  const catalogue = structuredClone(defaultPlans);
  for (const id of planIds) {
    const configured = requestsPerMinute[id];
    if (configured !== undefined) catalogue[id].rateLimit.requestsPerMinute = configured;
  }
  return catalogue;
}
