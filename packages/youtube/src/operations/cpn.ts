import { randomBytes } from 'node:crypto';

const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** A client playback nonce, as every InnerTube player request carries one (16 chars). */
export function newCpn(): string {
  return [...randomBytes(16)].map((byte) => alphabet[byte & 63]).join('');
}
