import { describe, expect, it } from 'vitest';
import { rewriteToOrigin } from './origin-rewrite';

describe('origin rewrite', () => {
  const fake = new URL('http://127.0.0.1:8090');

  it('points every YouTube host at the configured origin, keeping path and query', () => {
    expect(
      rewriteToOrigin(new URL('https://youtubei.googleapis.com/youtubei/v1/reel/reel_item_watch?$fields=playerResponse'), fake).toString(),
    ).toBe('http://127.0.0.1:8090/youtubei/v1/reel/reel_item_watch?$fields=playerResponse');
    expect(rewriteToOrigin(new URL('https://www.youtube.com/api/timedtext?v=x&lang=en'), fake).toString()).toBe(
      'http://127.0.0.1:8090/api/timedtext?v=x&lang=en',
    );
  });

  it('points storyboard sheet hosts (i.ytimg.com, i9.ytimg.com) at the origin too, but no other ytimg host', () => {
    expect(rewriteToOrigin(new URL('https://i.ytimg.com/sb/abc/storyboard3_L2/M0.jpg?sqp=x&sigh=rs$y'), fake).toString()).toBe(
      'http://127.0.0.1:8090/sb/abc/storyboard3_L2/M0.jpg?sqp=x&sigh=rs$y',
    );
    expect(rewriteToOrigin(new URL('https://i9.ytimg.com/sb/abc/x.jpg'), fake).host).toBe('127.0.0.1:8090');
    expect(rewriteToOrigin(new URL('https://yt3.ytimg.com/a.jpg'), fake).host).toBe('yt3.ytimg.com');
    const sheet = new URL('https://i.ytimg.com/sb/abc/x.jpg');
    expect(rewriteToOrigin(sheet, new URL('https://www.youtube.com')).toString()).toBe(sheet.toString());
  });

  it('leaves other hosts, and everything when the origin is YouTube itself', () => {
    expect(rewriteToOrigin(new URL('https://example.com/a'), fake).toString()).toBe('https://example.com/a');
    const api = new URL('https://youtubei.googleapis.com/youtubei/v1/player');
    expect(rewriteToOrigin(api, new URL('https://www.youtube.com')).toString()).toBe(api.toString());
  });
});
