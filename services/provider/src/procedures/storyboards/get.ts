import { getStoryboardInputSchema } from '@vrs/contracts';
import { procedure } from '@vrs/kit';
import type { ProviderDeps } from '../../provider-deps';
import { captureStoryboard } from '../../storyboards/capture-storyboard';

/**
 * A video's storyboard sheets as WebP (internal: agents hand them to a model). Not saved as a version:
 * sheets are large and only a run's model reads them; the agent run persists what it used.
 */
export const getStoryboard = ({ youtube, egress }: ProviderDeps) =>
  procedure.input(getStoryboardInputSchema).query(({ input }) => captureStoryboard(youtube, input, { egress }));
