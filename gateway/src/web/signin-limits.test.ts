import { describe, expect, it } from 'vitest';
import { createMemoryWindowCounter } from '@vrs/bus';
import { rootLogger } from '@vrs/kit';
import { createSignInLimits } from './signin-limits';

const log = rootLogger.child({ component: 'signin-limits-test' }, { level: 'silent' });

async function refusal(attempt: Promise<void>) {
  try {
    await attempt;
    return null;
  } catch (error) {
    return error as { code: string; details: { retryAfterSeconds: number } };
  }
}

describe('sign-in attempt limits', () => {
  it('refuses the attempt over the per-address limit with a Retry-After, other addresses unaffected', async () => {
    const count = createSignInLimits(createMemoryWindowCounter(), { perEmail: 3, perIp: 100, windowMs: 60_000, log });
    for (let n = 0; n < 3; n++) expect(await refusal(count('a@example.test', '10.0.0.1'))).toBeNull();
    const refused = await refusal(count('a@example.test', '10.0.0.2'));
    expect(refused?.code).toBe('SIGNIN_RATE_LIMITED');
    expect(refused?.details.retryAfterSeconds).toBeGreaterThan(0);
    expect(refused?.details.retryAfterSeconds).toBeLessThanOrEqual(60);
    expect(await refusal(count('b@example.test', '10.0.0.1'))).toBeNull();
  });

  it('refuses one IP trying many addresses', async () => {
    const count = createSignInLimits(createMemoryWindowCounter(), { perEmail: 100, perIp: 5, windowMs: 60_000, log });
    for (let n = 0; n < 5; n++) expect(await refusal(count(`user${n}@example.test`, '10.0.0.9'))).toBeNull();
    expect((await refusal(count('another@example.test', '10.0.0.9')))?.code).toBe('SIGNIN_RATE_LIMITED');
    expect(await refusal(count('another@example.test', '10.0.0.10'))).toBeNull();
  });
});
