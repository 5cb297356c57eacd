import { describe, expect, it } from 'vitest';
import { currentScryptParams, hashPassword, needsRehash, verifyAgainstDummy, verifyPassword } from './passwords';

describe('password hashing', () => {
  it('verifies the right password only, and salts every hash', async () => {
    const first = await hashPassword('correct horse battery');
    const second = await hashPassword('correct horse battery');
    expect(first).toMatch(/^scrypt\$17\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(first).not.toBe(second);
    expect(await verifyPassword('correct horse battery', first)).toBe(true);
    expect(await verifyPassword('correct horse batterY', first)).toBe(false);
    expect(await verifyPassword('', first)).toBe(false);
  });

  it('keeps verifying hashes made with older parameters, and says they need a rehash', async () => {
    const weak = await hashPassword('an older password', { logN: 14, r: 8, p: 1 });
    expect(await verifyPassword('an older password', weak)).toBe(true);
    expect(needsRehash(weak)).toBe(true);
    expect(needsRehash(await hashPassword('a current password'))).toBe(false);
    expect(currentScryptParams.logN).toBeGreaterThanOrEqual(17);
  });

  it('never matches a malformed stored hash', async () => {
    for (const stored of ['', 'scrypt$17$8$1$abc', 'bcrypt$x$y$z$a$b', 'scrypt$99$8$1$AAAA$AAAA']) {
      expect(await verifyPassword('anything', stored)).toBe(false);
    }
  });

  it('the dummy check refuses and costs about what a real check costs', async () => {
    const stored = await hashPassword('the real one');
    await verifyAgainstDummy('warm-up');
    const real = performance.now();
    await verifyPassword('a guess', stored);
    const realMs = performance.now() - real;
    const dummy = performance.now();
    expect(await verifyAgainstDummy('a guess')).toBe(false);
    const dummyMs = performance.now() - dummy;
    // Same parameters, so the same work: generous bounds for a shared machine.
    expect(dummyMs).toBeGreaterThan(realMs / 4);
    expect(dummyMs).toBeLessThan(realMs * 4);
  });
});
