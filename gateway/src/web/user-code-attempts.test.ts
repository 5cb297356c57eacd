import { describe, expect, it } from 'vitest';
import { createMemoryWindowCounter } from '@vrs/bus';
import { rootLogger } from '@vrs/kit';
import { userCodeAttempts } from './user-code-attempts';

const log = rootLogger.child({ component: 'test' }, { level: 'silent' });

async function refusalOf(attempt: Promise<unknown>) {
  return attempt.then(
    () => undefined,
    (error: { code: string; details: { retryAfterSeconds: number } }) => error,
  );
}

describe('user code attempts', () => {
  it('only wrong codes add up; past the limit an account is refused with a Retry-After', async () => {
    const attempts = userCodeAttempts(createMemoryWindowCounter(), { perAccount: 2, perIp: 20, windowMs: 60_000, log });
    // Real codes are taken back: any number of them never reaches the limit.
    for (let i = 0; i < 5; i++) await (await attempts.begin('acct_a', '10.0.0.1')).release();
    await attempts.begin('acct_a', '10.0.0.1');
    await attempts.begin('acct_a', '10.0.0.1');
    const refused = await refusalOf(attempts.begin('acct_a', '10.0.0.2'));
    expect(refused).toMatchObject({ code: 'USER_CODE_RATE_LIMITED' });
    expect(refused!.details.retryAfterSeconds).toBeGreaterThan(0);
    expect(refused!.details.retryAfterSeconds).toBeLessThanOrEqual(60);
    // Its neighbours on the same address are not locked out by it, however often it keeps trying.
    for (let i = 0; i < 30; i++) await refusalOf(attempts.begin('acct_a', '10.0.0.1'));
    expect(await refusalOf(attempts.begin('acct_b', '10.0.0.1'))).toBeUndefined();
  });

  it('many accounts guessing from one address meet the much higher per-IP bound', async () => {
    const attempts = userCodeAttempts(createMemoryWindowCounter(), { perAccount: 2, perIp: 6, windowMs: 60_000, log });
    for (const account of ['a', 'b', 'c']) for (let i = 0; i < 2; i++) await attempts.begin(`acct_${account}`, '10.0.0.9');
    expect(await refusalOf(attempts.begin('acct_d', '10.0.0.9'))).toMatchObject({ code: 'USER_CODE_RATE_LIMITED' });
    // Refused on the IP's count, that attempt is not held against the account elsewhere.
    expect(await refusalOf(attempts.begin('acct_d', '10.0.0.10'))).toBeUndefined();
    expect(await refusalOf(attempts.begin('acct_d', '10.0.0.10'))).toBeUndefined();
  });
});
