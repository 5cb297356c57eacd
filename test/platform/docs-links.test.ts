import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot as root } from '@vrs/kit';

/** README.md and every Markdown page under docs/, as paths from the root. */
function pages(): string[] {
  const found = ['README.md'];
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.md')) found.push(path);
    }
  };
  walk('docs');
  return found;
}

/** The relative targets of a page's Markdown links (`[text](target)`), without their #fragment. */
function relativeLinks(text: string): string[] {
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => match[1] ?? '')
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target) && !target.startsWith('#'))
    .map((target) => target.split('#')[0] ?? '');
}

describe('the README and docs/', () => {
  it('keep the README short enough to read in five minutes', () => {
    const lines = readFileSync(join(root, 'README.md'), 'utf8').split('\n').length;
    expect(lines).toBeLessThanOrEqual(250);
  });

  it('link only to files that exist', () => {
    const broken = pages().flatMap((page) =>
      relativeLinks(readFileSync(join(root, page), 'utf8'))
        .filter((target) => !existsSync(join(root, dirname(page), target)))
        .map((target) => `${page} → ${target}`),
    );
    expect(broken).toEqual([]);
  });

  it('link every page under docs/ from the README, directly or through its folder', () => {
    const readme = relativeLinks(readFileSync(join(root, 'README.md'), 'utf8')).map((target) => target.replace(/\/$/, ''));
    const unlinked = pages()
      .filter((page) => page !== 'README.md')
      .filter((page) => !readme.some((target) => page === target || relative(target, page).split('/')[0] !== '..'));
    expect(unlinked).toEqual([]);
  });

  it('list every decision in docs/decisions/README.md, with its status', () => {
    const index = readFileSync(join(root, 'docs/decisions/README.md'), 'utf8');
    const unlisted = readdirSync(join(root, 'docs/decisions'))
      .filter((name) => /^\d{4}-.*\.md$/.test(name))
      .filter((name) => !new RegExp(`\\]\\(${name.replace('.', '\\.')}\\) \\|[^|]+\\| (accepted|superseded)`).test(index));
    expect(unlisted).toEqual([]);
  });
});
