const site = 'https://www.youtube.com';

/** Site-relative paths from InnerTube ("/@kurzgesagt") become absolute youtube.com URLs. */
export function absoluteUrl(pathOrUrl: string | undefined | null): string | undefined {
  if (!pathOrUrl) return undefined;
  if (/^https?:\/\//.test(pathOrUrl)) return pathOrUrl.replace(/^http:/, 'https:');
  return `${site}${pathOrUrl.startsWith('/') ? '' : '/'}${pathOrUrl}`;
}

export const videoUrl = (id: string) => `${site}/watch?v=${id}`;
export const channelUrl = (id: string) => `${site}/channel/${id}`;
export const playlistUrl = (id: string) => `${site}/playlist?list=${id}`;
