import { describe, expect, it } from 'vitest';
import { currentScryptParams, hashPassword, needsRehash, verifyAgainstDummy, verifyPassword } from './passwords';

// scrypt at N=2^17 takes about 0.4 s a call alone; at a load average of 20 the file's first case
// took 30 s: timeouts far above either.
describe('password hashing', { timeout: 120_000 }, () => {
  it('verifies the right password only, and salts every hash', async () => {
    // Today's cost by default: OWASP's N=2^17, r=8, p=1.
    const first = await hashPassword('correct horse battery');
    expect(first).toMatch(/^scrypt\$17\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(await verifyPassword('correct horse battery', first)).toBe(true);
    expect(await verifyPassword('correct horse batterY', first)).toBe(false);
    const cheap = { logN: 12, r: 8, p: 1 };
    const [a, b] = await Promise.all([hashPassword('same', cheap), hashPassword('same', cheap)]);
    expect(a).not.toBe(b);
    expect(await verifyPassword('', a)).toBe(false);
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
    const params = { logN: 15, r: 8, p: 1 };
    const stored = await hashPassword('the real one', params);
    await verifyAgainstDummy('warm-up', params);
    // The fastest of three of each: a busy machine only ever adds time, so minima compare the work.
    let realMs = Number.POSITIVE_INFINITY;
    let dummyMs = Number.POSITIVE_INFINITY;
    for (let round = 0; round < 3; round++) {
      const real = performance.now();
      await verifyPassword('a guess', stored);
      realMs = Math.min(realMs, performance.now() - real);
      const dummy = performance.now();
      expect(await verifyAgainstDummy('a guess', params)).toBe(false);
      dummyMs = Math.min(dummyMs, performance.now() - dummy);
    }
    // Same parameters, so the same work: wide bounds, for a shared and busy machine.
    expect(dummyMs).toBeGreaterThan(realMs / 8);
    expect(dummyMs).toBeLessThan(realMs * 8);
  });
});
