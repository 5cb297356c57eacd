import { describe, expect, it } from 'vitest';
import { rootLogger } from '@vrs/kit';
import { createKeyUseRecorder, type KeyUse } from './key-use-recorder';

const log = rootLogger.child({ component: 'key-use-recorder-test' }, { level: 'silent' });

function recorder(send: (uses: KeyUse[]) => Promise<unknown>) {
  let now = Date.parse('2026-03-01T12:00:00.000Z');
  const uses = createKeyUseRecorder({ send, intervalMs: 60_000, log, clock: () => now });
  return { uses, advance: (ms: number) => (now += ms) };
}

describe('API key use recorder', () => {
  it('turns many uses into one call with each key’s latest use', async () => {
    const calls: KeyUse[][] = [];
    const { uses, advance } = recorder(async (batch) => calls.push(batch));
    for (let n = 0; n < 500; n++) {
      uses.note(n % 2 === 0 ? 'key_a' : 'key_b');
      advance(10);
    }
    await uses.flush();
    expect(calls).toHaveLength(1);
    expect(calls[0]).toEqual([
      { keyId: 'key_a', at: '2026-03-01T12:00:04.980Z' },
      { keyId: 'key_b', at: '2026-03-01T12:00:04.990Z' },
    ]);
    // Nothing new: no call at all.
    await uses.flush();
    expect(calls).toHaveLength(1);
  });

  it('keeps the uses of a failed flush for the next one, merged with newer uses', async () => {
    const calls: KeyUse[][] = [];
    let failing = true;
    const { uses, advance } = recorder(async (batch) => {
      calls.push(batch);
      if (failing) throw new Error('billing unavailable');
    });
    uses.note('key_a');
    uses.note('key_b');
    await uses.flush();
    failing = false;
    advance(1000);
    uses.note('key_a');
    await uses.close();
    expect(calls).toHaveLength(2);
    expect(calls[1]).toEqual([
      { keyId: 'key_a', at: '2026-03-01T12:00:01.000Z' },
      { keyId: 'key_b', at: '2026-03-01T12:00:00.000Z' },
    ]);
  });

  it('sends at most 1000 uses per call', async () => {
    const calls: KeyUse[][] = [];
    const { uses } = recorder(async (batch) => calls.push(batch));
    for (let n = 0; n < 2500; n++) uses.note(`key_${n}`);
    await uses.flush();
    expect(calls.map((batch) => batch.length)).toEqual([1000, 1000, 500]);
  });
});
