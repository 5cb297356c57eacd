import { randomInt } from 'node:crypto';
import { userCodeAlphabet, userCodeLength } from '@vrs/contracts';

/**
 * A user code (RFC 8628 §6.1): 8 characters of a 20-letter alphabet without vowels or look-alikes
 * (20^8 ≈ 2^34.6), from the CSPRNG with no modulo bias (`randomInt`). Stored as its hash.
 */
export function generateUserCode(): string {
  return Array.from({ length: userCodeLength }, () => userCodeAlphabet[randomInt(userCodeAlphabet.length)]).join('');
}

/** XXXX-XXXX, the way the code is shown to people. */
export function formatUserCode(code: string): string {
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

/**
 * What a person typed, as the canonical code: case, dashes and spaces do not matter. Null when it
 * cannot be a code at all (another length, a letter outside the alphabet), so no lookup is made.
 */
export function normalizeUserCode(typed: string): string | null {
  const code = typed.toUpperCase().replace(/[\s-]/g, '');
  if (code.length !== userCodeLength) return null;
  return [...code].every((char) => userCodeAlphabet.includes(char)) ? code : null;
}
