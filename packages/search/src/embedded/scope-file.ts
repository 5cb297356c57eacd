import { createHash } from 'node:crypto';

/** A scope's database file name: the scope itself when it is a safe file name, else its hash. */
export function scopeFileName(scope: string): string {
  if (/^[A-Za-z0-9_-]{1,100}$/.test(scope)) return `${scope}.sqlite`;
  return `h_${createHash('sha256').update(scope).digest('hex')}.sqlite`;
}
