// Every host youtubei.js or a caption baseUrl may name. All of them are served by one origin
// in tests (the fake upstream) and by their real hosts in production (origin = youtube.com).
const youtubeHosts = new Set(['www.youtube.com', 'youtube.com', 'm.youtube.com', 'youtubei.googleapis.com']);

/** Points a YouTube URL at the configured origin, keeping path and query; other URLs pass. */
export function rewriteToOrigin(url: URL, origin: URL): URL {
  if (!youtubeHosts.has(url.hostname)) return url;
  if (origin.hostname === 'www.youtube.com' || origin.hostname === 'youtube.com') {
    // Production: keep youtubei.googleapis.com, which the ANDROID endpoints are served from.
    return url;
  }
  const basePath = origin.pathname.replace(/\/+$/, '');
  return new URL(`${origin.protocol}//${origin.host}${basePath}${url.pathname}${url.search}`);
}
