import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * scrypt password hashes at OWASP's cost (ADR 0034), each stored with its salt and parameters
 * (`scrypt$17$8$1$<salt>$<hash>`): old hashes verify at their own cost and `needsRehash` upgrades them.
 */
export interface ScryptParams {
  /** log2 of N, the CPU/memory cost. */
  logN: number;
  r: number;
  p: number;
}

export const currentScryptParams: ScryptParams = { logN: 17, r: 8, p: 1 };
const keyLength = 32;
const saltLength = 16;

function derive(password: string, salt: Buffer, { logN, r, p }: ScryptParams): Promise<Buffer> {
  const N = 2 ** logN;
  // scrypt needs 128·N·r bytes; node refuses more than 32 MiB unless maxmem says otherwise.
  const options: ScryptOptions = { N, r, p, maxmem: 256 * N * r };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, keyLength, options, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

export async function hashPassword(password: string, params: ScryptParams = currentScryptParams): Promise<string> {
  const salt = randomBytes(saltLength);
  const key = await derive(password, salt, params);
  return ['scrypt', params.logN, params.r, params.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

function parse(encoded: string): { params: ScryptParams; salt: Buffer; key: Buffer } | null {
  const [scheme, ...fields] = encoded.split('$');
  if (scheme !== 'scrypt' || fields.length !== 5) return null;
  const [logN, r, p, salt = '', key = ''] = fields;
  const params = { logN: Number(logN), r: Number(r), p: Number(p) };
  if (!Object.values(params).every((n) => Number.isInteger(n) && n > 0) || params.logN > 24) return null;
  return { params, salt: Buffer.from(salt, 'base64url'), key: Buffer.from(key, 'base64url') };
}

/** Compares in constant time; a malformed stored hash never matches. */
export async function verifyPassword(password: string, encoded: string): Promise<boolean> {
  const parsed = parse(encoded);
  if (!parsed) return false;
  const key = await derive(password, parsed.salt, parsed.params);
  return key.length === parsed.key.length && timingSafeEqual(key, parsed.key);
}

/** The hash was made with weaker parameters than today's: rehash it on the next successful sign-in. */
export function needsRehash(encoded: string, params: ScryptParams = currentScryptParams): boolean {
  const parsed = parse(encoded);
  return !parsed || parsed.params.logN < params.logN || parsed.params.r < params.r || parsed.params.p < params.p;
}

const dummyHashes = new Map<string, Promise<string>>();

/**
 * Spends the same time as checking a real password, for an email address with no account (or no
 * password), so the answer's timing does not tell which addresses have accounts.
 */
export async function verifyAgainstDummy(password: string, params: ScryptParams = currentScryptParams): Promise<false> {
  const key = `${params.logN}/${params.r}/${params.p}`;
  let dummy = dummyHashes.get(key);
  if (!dummy) {
    dummy = hashPassword(randomBytes(16).toString('hex'), params);
    dummyHashes.set(key, dummy);
  }
  await verifyPassword(password, await dummy);
  return false;
}
