import { createHash, randomBytes } from 'node:crypto';

/** A secret token: the prefix names its kind, then 32 bytes (256 bits) from the CSPRNG in base64url. */
export function generateToken(prefix: string): string {
  return prefix + randomBytes(32).toString('base64url');
}

/** Tokens are stored as their sha256 (hex) only, so a leaked database yields no usable token. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
