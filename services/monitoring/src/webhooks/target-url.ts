import { lookup } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { AppError } from '@vrs/kit';

/**
 * Every range of IANA's IPv4 and IPv6 special-purpose address registries (RFC 6890 and later),
 * multicast and IPv6 site-local besides: never a webhook target in production (ADR 0079). Some of
 * them are marked globally reachable there (AS112, AMT, TURN anycast); none is a customer's endpoint.
 */
const ipv4Ranges: [string, number][] = [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // shared address space (CGNAT)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments (DS-Lite, NAT64 discovery, TURN, ...)
  ['192.0.2.0', 24], // TEST-NET-1
  ['192.31.196.0', 24], // AS112-v4
  ['192.52.193.0', 24], // AMT
  ['192.88.99.0', 24], // deprecated 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['192.175.48.0', 24], // AS112 direct delegation
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // TEST-NET-2
  ['203.0.113.0', 24], // TEST-NET-3
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and 255.255.255.255 broadcast
];
const ipv6Ranges: [string, number][] = [
  ['::', 96], // unspecified, loopback, and deprecated IPv4-compatible addresses
  ['64:ff9b::', 96], // NAT64 well-known prefix
  ['64:ff9b:1::', 48], // local-use IPv4/IPv6 translation
  ['100::', 64], // discard-only
  ['100:0:0:1::', 64], // dummy prefix
  ['2001::', 23], // IETF protocol assignments (Teredo, benchmarking, ORCHID, AMT, AS112, DRIP)
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4
  ['2620:4f:8000::', 48], // AS112-v6
  ['3fff::', 20], // documentation
  ['5f00::', 16], // SRv6 SIDs
  ['fc00::', 7], // unique-local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // deprecated site-local
  ['ff00::', 8], // multicast
];

function ipv4Bits(address: string): bigint {
  return address.split('.').reduce((bits, part) => (bits << 8n) | BigInt(Number(part)), 0n);
}

/** The 128 bits of an IPv6 address in any textual form (`::`, embedded dotted quad, zone id). */
function ipv6Bits(address: string): bigint {
  let text = address.replace(/%[\s\S]*$/, '');
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)?.[1];
  if (dotted) {
    const v4 = ipv4Bits(dotted);
    text = `${text.slice(0, -dotted.length)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  const groups =
    tail === undefined ? headGroups : [...headGroups, ...Array(8 - headGroups.length - tailGroups.length).fill('0'), ...tailGroups];
  return groups.reduce((bits, group) => (bits << 16n) | BigInt(Number.parseInt(group, 16)), 0n);
}

const toRanges = (ranges: [string, number][], width: bigint, bitsOf: (text: string) => bigint) =>
  ranges.map(([network, prefix]) => ({ shift: width - BigInt(prefix), network: bitsOf(network) >> (width - BigInt(prefix)) }));
const refusedIpv4 = toRanges(ipv4Ranges, 32n, ipv4Bits);
const refusedIpv6 = toRanges(ipv6Ranges, 128n, ipv6Bits);
const ipv4MappedPrefix = 0xffffn;
const inRanges = (ranges: { shift: bigint; network: bigint }[], bits: bigint) =>
  ranges.some(({ shift, network }) => bits >> shift === network);

/**
 * True for an address no webhook may reach: any special-purpose range, an IPv4-mapped IPv6 address
 * (`::ffff:127.0.0.1`, `::ffff:7f00:1`) judged as the IPv4 address it carries, and anything that is
 * not an IP address at all (so a check never passes what it could not read).
 */
export function isRefusedAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return inRanges(refusedIpv4, ipv4Bits(address));
  if (family !== 6) return true;
  const bits = ipv6Bits(address);
  if (bits >> 32n === ipv4MappedPrefix) return inRanges(refusedIpv4, bits & 0xffffffffn);
  return inRanges(refusedIpv6, bits);
}

const invalid = (message: string) => new AppError('WEBHOOK_URL_INVALID', message, { issues: [{ path: 'url', message }] });
const refusedTarget = 'url must not point at a loopback, private, link-local or other special-purpose address';

/** The URL's host without IPv6 brackets or a trailing root dot. */
const hostOf = (url: URL) => url.hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '');

/** At creation: http(s) only, and no special-purpose literal address or `localhost` unless allowed. */
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
  const host = hostOf(url).toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost') || (isIP(host) && isRefusedAddress(host))) throw invalid(refusedTarget);
  return url;
}

/** The error a delivery records when its target is (or resolves to) a refused address. */
export class RefusedTargetError extends Error {
  constructor(address: string) {
    super(`The URL resolves to ${address}, a loopback, private, link-local or other special-purpose address.`);
    this.name = 'RefusedTargetError';
  }
}

/**
 * At delivery, the socket's own DNS lookup: the addresses it answers are the ones connected to,
 * each checked by the same `isRefusedAddress`, so no second answer can slip in between the check
 * and the connection (DNS rebinding).
 */
export const refusingLookup: LookupFunction = (hostname, options, callback) => {
  lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '', 0);
    const refused = addresses.find(({ address }) => isRefusedAddress(address));
    if (refused) return callback(new RefusedTargetError(refused.address), '', 0);
    if (options.all) return (callback as unknown as (e: null, all: typeof addresses) => void)(null, addresses);
    const [first] = addresses;
    if (!first) return callback(new Error(`No address for ${hostname}.`), '', 0);
    callback(null, first.address, first.family);
  });
};

/** A literal address in the URL is connected to without a lookup, so it is checked here, by the same function. */
export function refusedLiteral(url: URL): string | null {
  const host = hostOf(url);
  return isIP(host) && isRefusedAddress(host) ? host : null;
}
