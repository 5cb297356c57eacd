import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { AppError } from '@vrs/kit';

/** Loopback, private, link-local, CGNAT, unspecified and multicast ranges: never a webhook target in production. */
const privateRanges = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  privateRanges.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  privateRanges.addSubnet(network, prefix, 'ipv6');
}

export function isPrivateAddress(address: string): boolean {
  const mapped = address.toLowerCase().startsWith('::ffff:') ? address.slice(7) : address;
  const family = isIP(mapped);
  if (family === 0) return false;
  return privateRanges.check(mapped, family === 4 ? 'ipv4' : 'ipv6');
}

const invalid = (message: string) => new AppError('WEBHOOK_URL_INVALID', message, { issues: [{ path: 'url', message }] });

/** At creation: http(s) only, and no loopback or private literal address or `localhost` unless allowed. */
export function checkWebhookUrl(raw: string, allowPrivate: boolean): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalid('url must be an absolute http(s) URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalid('url must use http or https');
  if (url.username || url.password) throw invalid('url must not carry credentials');
  if (allowPrivate) return url;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (host === 'localhost' || host.endsWith('.localhost') || isPrivateAddress(host)) {
    throw invalid('url must not point at a loopback, private or link-local address');
  }
  return url;
}

/**
 * At delivery: a name may resolve to a private address (or be changed to); such a delivery is
 * refused, so webhooks cannot reach inside the network the service runs in.
 */
export async function resolvesToPrivateAddress(url: URL): Promise<boolean> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) return isPrivateAddress(host);
  const addresses = await lookup(host, { all: true });
  return addresses.some(({ address }) => isPrivateAddress(address));
}
