import { describe, expect, it } from 'vitest';
import { YouTubeError } from '../errors';
import { hasRecorded, reportMissingShared, testClient, useReplay } from '@vrs/testing/youtube-replay';

reportMissingShared('player-client chain');

const android = 'reel/reel_item_watch ANDROID';
const tvEmbedded = 'player TVHTML5_SIMPLY_EMBEDDED_PLAYER';
const web = 'player WEB';

describe.skipIf(!hasRecorded)('the player-client fallback chain over the recorded clients', () => {
  const fake = useReplay();

  it('answers the age-restricted rwcfPqbAx-0 with VIDEO_AGE_RESTRICTED after asking ANDROID, the TV embed and WEB', async () => {
    const error = await testClient(fake)
      .getTranscript('rwcfPqbAx-0')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(YouTubeError);
    expect(error).toMatchObject({ code: 'VIDEO_AGE_RESTRICTED', reason: 'age', transient: false });
    expect((error as YouTubeError).platformReason).toMatch(/Sign in to confirm your age/);
    expect(fake.hits().byClient).toMatchObject({ [android]: 1, [tvEmbedded]: 1, [web]: 1 });
    expect(fake.unmatched()).toEqual([]);
  });

  it('answers metadata of the age-restricted video the same way', async () => {
    await expect(testClient(fake).getVideo('rwcfPqbAx-0')).rejects.toMatchObject({ code: 'VIDEO_AGE_RESTRICTED' });
  });

  it('stops at the first client when its answer holds for every client (private, not found)', async () => {
    await expect(testClient(fake).getVideo('8VajtrESJzA')).rejects.toMatchObject({ code: 'VIDEO_PRIVATE' });
    await expect(testClient(fake).getVideo('INVALID_ID_')).rejects.toMatchObject({ code: 'VIDEO_UNAVAILABLE' });
    expect(fake.hits().byClient[tvEmbedded]).toBeUndefined();
  });

  it('plays through the TV embed when the ANDROID request is refused outright', async () => {
    fake.addFault({ match: { endpoint: 'reel/reel_item_watch', videoId: 'rwcfPqbAx-0' }, kind: 'status', status: 400 });
    // A transcript reads the player chain alone (a video's metadata also asks the WEB player beside it).
    const error = await testClient(fake)
      .getTranscript('rwcfPqbAx-0')
      .catch((e: unknown) => e);
    // The refused request says nothing about the video; the recorded TV embed and WEB answers do,
    // and the web player's words are the more precise ones.
    expect(error).toMatchObject({ code: 'VIDEO_AGE_RESTRICTED' });
    expect((error as YouTubeError).platformReason).toMatch(/^Sign in to confirm your age/);
    expect(fake.hits().byClient).toMatchObject({ [android]: 1, [tvEmbedded]: 1, [web]: 1 });
  });

  it('does not go on to other clients during an outage: a 503 stays UPSTREAM_UNAVAILABLE', async () => {
    fake.addFault({ match: { endpoint: 'reel/reel_item_watch' }, kind: 'status', status: 503 });
    const error = await testClient(fake, { retries: 0 })
      .getVideo('rwcfPqbAx-0')
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', reason: 'upstream_error', transient: true });
    expect(fake.hits().byClient[tvEmbedded]).toBeUndefined();
  });

  it.each([
    ['vrsRental001', 'VIDEO_PAID', 'paid'],
    ['vrsUnnamed01', 'VIDEO_RESTRICTED', 'restricted'],
  ])('answers the authored %s with %s / %s', async (id, code, reason) => {
    await expect(testClient(fake).getVideo(id)).rejects.toMatchObject({ code, reason, transient: false });
  });

  it('gives the metadata of a live stream not started, but no transcript (VIDEO_LIVE_NOT_ENDED)', async () => {
    const client = testClient(fake);
    expect(await client.getVideo('vrsUpcoming1')).toMatchObject({ id: 'vrsUpcoming1', isUpcoming: true });
    await expect(client.getTranscript('vrsUpcoming1')).rejects.toMatchObject({
      code: 'VIDEO_LIVE_NOT_ENDED',
      platformReason: 'This live event will begin in 3 days.',
    });
  });
});
