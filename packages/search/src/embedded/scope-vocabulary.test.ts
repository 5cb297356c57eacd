import { join } from 'node:path';
import Database from 'libsql';
import { describe, expect, it } from 'vitest';
import { makeTempDir } from '@vrs/testing/temp-dir';
import { ByteBudgetLru } from './byte-budget-lru';
import { ScopeVocabulary } from './scope-vocabulary';
import { scopeFileName } from './scope-file';
import { SqliteSearchCore } from './sqlite-search-core';

/**
 * Terms whose code point order UTF-16 order would not keep: a fullwidth letter (U+FF5A) comes before
 * a letter beyond U+FFFF (U+10428); "über" is indexed as "uber".
 */
const words = ['alpha', 'alphabet', 'beta', 'über', 'x\uFF5A', 'x\u{10428}', 'zeta'];
const probes = [
  '',
  'a',
  'alpha',
  'alphab',
  'alphabetz',
  'b',
  'u',
  'uber',
  'über',
  'x',
  'x\uFF5A',
  'x\uFF5B',
  'x\u{10428}',
  'y',
  'zeta',
  'zz',
];

function scope() {
  const dir = makeTempDir('vrs-vocabulary-');
  const core = new SqliteSearchCore(dir);
  core.apply('scope', [{ id: 'a', text: words.join(' ') }]);
  core.close();
  return new Database(join(dir, scopeFileName('scope')));
}

/** What the vocabulary answers for each probe: the first term from it, and whether it is a term. */
function answersOf(vocabulary: { firstFrom(from: string): string | undefined; has(term: string): boolean }) {
  return probes.map((probe) => [vocabulary.firstFrom(probe), vocabulary.has(probe)]);
}

/** SQLite's own answers, read directly. */
function sqliteAnswers(db: InstanceType<typeof Database>) {
  const first = db.prepare('SELECT term FROM terms WHERE term >= ? LIMIT 1').raw(true);
  const has = db.prepare('SELECT 1 FROM terms WHERE term = ? LIMIT 1').raw(true);
  return answersOf({ firstFrom: (from) => (first.get(from) as [string] | undefined)?.[0], has: (term) => has.get(term) !== undefined });
}

describe('a scope’s vocabulary (ADR 0112)', () => {
  it('answers seeks and probes in code point order, from fts5vocab and then from the terms read whole', () => {
    const db = scope();
    const budget = new ByteBudgetLru(1 << 20);
    // 10 tokens: 10 × 0.003 reads pay for reading every term, so the first read's answers come from SQLite, the rest from memory.
    const vocabulary = new ScopeVocabulary(db, budget, () => 10);
    const expected = sqliteAnswers(db);
    expect(expected.map(([first]) => first)).toContain('x\u{10428}');
    expect(vocabulary.firstFrom('alphab')).toBe('alphabet');
    expect(budget.bytes).toBe(0);
    expect(answersOf(vocabulary)).toEqual(expected);
    expect(budget.bytes).toBeGreaterThan(0);
    db.close();
  });

  it('answers the same from SQLite alone, when the terms are too many for the budget or the reads too few', () => {
    const db = scope();
    const tiny = new ByteBudgetLru(16);
    const refused = new ScopeVocabulary(db, tiny, () => 10);
    const cold = new ScopeVocabulary(db, new ByteBudgetLru(1 << 20), () => 1_000_000);
    const expected = sqliteAnswers(db);
    expect(answersOf(refused)).toEqual(expected);
    expect(tiny.bytes).toBe(0);
    expect(answersOf(cold)).toEqual(expected);
    db.close();
  });

  it('forgets its answers and its terms when the scope changes', () => {
    const db = scope();
    const budget = new ByteBudgetLru(1 << 20);
    const vocabulary = new ScopeVocabulary(db, budget, () => 10);
    expect(answersOf(vocabulary)[0]).toEqual(['alpha', false]);
    db.exec(
      "INSERT INTO docs(id, text, stored) VALUES ('b', 'aardvark', '{}'); INSERT INTO fts(rowid, text) SELECT rowid, text FROM docs WHERE id = 'b'",
    );
    expect(vocabulary.firstFrom('')).toBe('alpha');
    vocabulary.clear();
    expect(budget.bytes).toBe(0);
    expect(vocabulary.firstFrom('')).toBe('aardvark');
    expect(vocabulary.has('aardvark')).toBe(true);
    db.close();
  });
});
