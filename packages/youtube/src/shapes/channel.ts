import type { z } from 'zod';
import { channelSchema as publicChannelSchema } from '@vrs/contracts';
import { warningsSchema } from './common';

/** The public channel without its `meta`, which the provider computes; what could not be read instead. */
export const channelSchema = publicChannelSchema.omit({ meta: true }).extend({ warnings: warningsSchema });
export type Channel = z.infer<typeof channelSchema>;
