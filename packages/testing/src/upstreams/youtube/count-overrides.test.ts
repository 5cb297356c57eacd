import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectDir } from './fixture-dirs';
import { startFakeYouTube, type FakeYouTube } from './server';

describe('fake YouTube count overrides', () => {
  let fake: FakeYouTube;
  beforeAll(async () => {
    fake = await startFakeYouTube({ replayDirs: [projectDir], log: () => undefined });
  });
  afterAll(() => fake.close());

  const player = async () => {
    const response = await fetch(`${fake.url}/youtubei/v1/reel/reel_item_watch?$fields=playerResponse`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        context: { client: { clientName: 'ANDROID' } },
        playerRequest: { videoId: 'coldBrew001' },
        disablePlayerResponse: false,
      }),
    });
    return (
      (await response.json()) as {
        playerResponse: { videoDetails: { viewCount: string }; microformat: { playerMicroformatRenderer: { likeCount: string } } };
      }
    ).playerResponse;
  };

  it('answers the overridden counts until reset', async () => {
    expect((await player()).videoDetails.viewCount).toBe('48000');
    fake.setCounts({ videoId: 'coldBrew001', viewCount: 60_000, likeCount: 2_900 });
    const moved = await player();
    expect(moved.videoDetails.viewCount).toBe('60000');
    expect(moved.microformat.playerMicroformatRenderer.likeCount).toBe('2900');
    fake.reset();
    expect((await player()).videoDetails.viewCount).toBe('48000');
  });
});
