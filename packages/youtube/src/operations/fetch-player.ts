import { playabilityError } from '../playability';
import type { Upstream } from '../transport/upstream';
import { newCpn } from './cpn';

/**
 * The player response through the ANDROID client's reel_item_watch, masked to `playerResponse`:
 * the request NewPipe makes today, so it matches the 2026 recordings. Throws the typed error the
 * playability status calls for.
 */
export async function fetchPlayer(upstream: Upstream, videoId: string): Promise<Record<string, unknown>> {
  const wrapper = await upstream.raw('/reel/reel_item_watch?$fields=playerResponse', {
    client: 'ANDROID',
    playerRequest: { videoId, cpn: newCpn(), contentCheckOk: true, racyCheckOk: true },
    disablePlayerResponse: false,
  });
  const playerResponse = wrapper.playerResponse as Record<string, unknown> | undefined;
  const error = playabilityError(playerResponse);
  if (error) throw error;
  return playerResponse as Record<string, unknown>;
}
