import { z } from 'zod';

export { channelRefSchema, thumbnailSchema, type Thumbnail } from '@vrs/contracts';

/** What an operation could not get; the service folds these into the response's `meta`. */
export const warningsSchema = z.array(z.string());
