import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from './temp-dir';

const prefix = `vrs-temp-dir-test-${process.pid}-`;

describe('makeTempDir', () => {
  let fromBeforeEach: string;
  const made: string[] = [];
  const presentInAfterEach: boolean[] = [];
  beforeEach(() => {
    fromBeforeEach = makeTempDir(prefix);
  });
  afterEach(() => {
    presentInAfterEach.push(existsSync(fromBeforeEach));
  });

  it('makes a new directory under the OS temp dir, in a test or a beforeEach', () => {
    const inTest = makeTempDir(prefix);
    made.push(fromBeforeEach, inTest);
    expect(inTest).not.toBe(fromBeforeEach);
    for (const dir of made) {
      expect(dirname(dir)).toBe(tmpdir());
      expect(basename(dir).startsWith(prefix)).toBe(true);
      expect(readdirSync(dir)).toEqual([]);
    }
    mkdirSync(join(inTest, 'nested'));
    writeFileSync(join(inTest, 'nested', 'file'), 'something to remove');
  });

  it('has removed them, contents and all, once that test finished, and not before its afterEach hooks ran', () => {
    expect(presentInAfterEach).toEqual([true]);
    for (const dir of made) expect(existsSync(dir), dir).toBe(false);
  });
});

describe('makeTempDir outside a test', () => {
  const outsidePrefix = `vrs-temp-dir-outside-${process.pid}-`;
  beforeAll(() => {
    expect(() => makeTempDir(outsidePrefix)).toThrow(/inside a test/);
  });

  it('throws in a beforeAll, and leaves no directory behind', () => {
    expect(readdirSync(tmpdir()).filter((name) => name.startsWith(outsidePrefix))).toEqual([]);
  });
});
