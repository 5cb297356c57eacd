import { z } from 'zod';
import type { PriceVariant, Served } from '@vrs/contracts';
import type { FieldCodes } from '../../errors/to-app-error';
import type { GatewayContext } from '../../context';

/* What every provider read shares. */

/** A `{provider}` that is not in the enum is its own error, not a generic validation failure. */
export const providerFieldCodes: FieldCodes = { provider: { invalid: 'PROVIDER_NOT_SUPPORTED' } };

/** A boolean query switch as `true` / `false` (a coerced boolean would read "false" as true). */
export const queryFlag = (description: string) =>
  z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true')
    .describe(description);

export const refreshParam = () =>
  queryFlag(
    'Fetch again from YouTube and save a new version. By default the saved version is reused whatever its age (`meta.fetchedAt` tells which). A failed refresh answers the error, never the older version.',
  );

export const continuationParam = () =>
  z.string().min(1).max(4000).optional().describe('Opaque token from the `continuation` of the previous page.');

export const videoIdParam = () =>
  z
    .string()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9_-]+$/, 'must be a YouTube video id (letters, digits, - and _)')
    .describe('YouTube video id.');

export const channelIdParam = () =>
  z
    .string()
    .min(1)
    .max(200)
    .regex(/^[^\s/%?#\p{Cc}]+$/u, 'must be a channel id (`UC…`) or a handle (`@name`)')
    .describe('Channel id (`UC…`) or handle (`@name`).');

/** What a provider read asks the provider besides its subject: a refresh, or saved data only (ADR 0019). */
export function readMode(ctx: GatewayContext, input: { refresh: boolean }) {
  return { refresh: input.refresh, savedOnly: ctx.credits.savedOnly === true };
}

/** For `savedVariant`: a read costs the cached price when saved data answers it, unless it asks for a refresh. */
export const savedUnlessRefresh = (rawInput: Record<string, unknown>): PriceVariant | undefined =>
  rawInput.refresh === 'true' ? undefined : 'cached';

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
