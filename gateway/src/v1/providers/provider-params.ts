import type { PriceVariant, Served } from '@vrs/contracts';
import type { FieldCodes } from '../../errors/to-app-error';
import type { GatewayContext } from '../../context';

/* What every provider read shares. */

/** A `{provider}` that is not in the enum is its own error, not a generic validation failure. */
export const providerFieldCodes: FieldCodes = { provider: { invalid: 'PROVIDER_NOT_SUPPORTED' } };

/** What a provider read asks the provider besides its subject: a refresh, or saved data only (ADR 0019). */
export function readMode(ctx: GatewayContext, input: { refresh: boolean }) {
  return { refresh: input.refresh, savedOnly: ctx.credits.savedOnly === true };
}

/** The meta of a provider read that saved data may answer: `{provider}`'s own code, and the cached price unless it asks for a refresh. */
export const savedReadMeta = {
  fieldCodes: providerFieldCodes,
  savedVariant: (rawInput: Record<string, unknown>): PriceVariant | undefined => (rawInput.refresh === 'true' ? undefined : 'cached'),
};

/**
 * Hands the result on and tells metering which price applies: the cached one when a saved version
 * answered, the fresh one when YouTube did (collections have prices of their own).
 */
export function charged<T>(ctx: GatewayContext, { result, cached }: Served<T>, mode: 'single' | 'collection' = 'single'): T {
  const variants: Record<typeof mode, [fresh: PriceVariant, cached: PriceVariant]> = {
    single: ['fresh', 'cached'],
    collection: ['collectionFresh', 'collectionCached'],
  };
  ctx.credits.variant = variants[mode][cached ? 1 : 0];
  return result;
}
