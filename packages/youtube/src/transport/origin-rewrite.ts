// Every host youtubei.js, a caption baseUrl or a storyboard spec (i.ytimg.com, i1–i9.ytimg.com) may
// name. All of them are served by one origin in tests (the fake upstream) and by their real hosts in
// production (origin = youtube.com).
const youtubeHosts = new Set(['www.youtube.com', 'youtube.com', 'm.youtube.com', 'youtubei.googleapis.com']);
const isYouTubeHost = (hostname: string) => youtubeHosts.has(hostname) || /^i\d?\.ytimg\.com$/.test(hostname);

/** Points a YouTube URL at the configured origin, keeping path and query; other URLs pass. */
export function rewriteToOrigin(url: URL, origin: URL): URL {
  if (!isYouTubeHost(url.hostname)) return url;
  if (origin.hostname === 'www.youtube.com' || origin.hostname === 'youtube.com') {
    // Production: keep youtubei.googleapis.com (the ANDROID endpoints) and i.ytimg.com (storyboard sheets).
    return url;
  }
  const basePath = origin.pathname.replace(/\/+$/, '');
  return new URL(`${origin.protocol}//${origin.host}${basePath}${url.pathname}${url.search}`);
}
