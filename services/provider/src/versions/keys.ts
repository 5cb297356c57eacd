import { createHash } from 'node:crypto';

/**
 * Version keys: the parts of a request that decide what YouTube answers, joined with `|`.
 * Continuation tokens are opaque and can run to kilobytes, so a key holds their digest.
 */
export function versionKey(...parts: (string | number)[]): string {
  return parts.join('|');
}

export function continuationPart(continuation: string | undefined): string {
  return continuation ? `c:${createHash('sha256').update(continuation).digest('base64url')}` : 'first';
}

/** Handles are case-insensitive on YouTube; channel ids are not. */
export function channelPart(channel: string): string {
  return channel.startsWith('@') ? channel.toLowerCase() : channel;
}
