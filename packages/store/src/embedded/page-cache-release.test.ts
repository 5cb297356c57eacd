import { afterEach, describe, expect, it, vi } from 'vitest';
import { releasePageCacheAfterWrites } from './page-cache-release';

afterEach(() => {
  vi.useRealTimers();
});

/** A connection whose writes the test makes, and which counts the releases asked of it. */
function connection(answers: boolean[] = []) {
  const state = { writes: 0, releases: 0 };
  return {
    state,
    writes: () => state.writes,
    release: () => {
      state.releases++;
      return answers.shift() ?? true;
    },
  };
}

describe('releasePageCacheAfterWrites', () => {
  it('never releases a connection that is not written', () => {
    vi.useFakeTimers();
    const db = connection();
    releasePageCacheAfterWrites(db, 100);
    vi.advanceTimersByTime(1_000);
    expect(db.state.releases).toBe(0);
  });

  it('releases once, at the first check with no write since one that saw writes', () => {
    vi.useFakeTimers();
    const db = connection();
    releasePageCacheAfterWrites(db, 100);
    db.state.writes += 3;
    vi.advanceTimersByTime(100);
    expect(db.state.releases).toBe(0);
    vi.advanceTimersByTime(100);
    expect(db.state.releases).toBe(1);
    vi.advanceTimersByTime(1_000);
    expect(db.state.releases).toBe(1);
  });

  it('waits while writes go on, and releases again after the next burst', () => {
    vi.useFakeTimers();
    const db = connection();
    releasePageCacheAfterWrites(db, 100);
    for (let i = 0; i < 10; i++) {
      db.state.writes++;
      vi.advanceTimersByTime(100);
    }
    expect(db.state.releases).toBe(0);
    vi.advanceTimersByTime(100);
    expect(db.state.releases).toBe(1);
    db.state.writes++;
    vi.advanceTimersByTime(200);
    expect(db.state.releases).toBe(2);
  });

  it('asks again at the next check when the connection could not let go', () => {
    vi.useFakeTimers();
    const db = connection([false, false]);
    releasePageCacheAfterWrites(db, 100);
    db.state.writes++;
    vi.advanceTimersByTime(400);
    expect(db.state.releases).toBe(3);
    vi.advanceTimersByTime(1_000);
    expect(db.state.releases).toBe(3);
  });

  it('stops checking once stopped', () => {
    vi.useFakeTimers();
    const db = connection();
    const stop = releasePageCacheAfterWrites(db, 100);
    db.state.writes++;
    vi.advanceTimersByTime(100);
    stop();
    vi.advanceTimersByTime(1_000);
    expect(db.state.releases).toBe(0);
  });
});
