import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';

export const chromiumPath = '/usr/bin/chromium';

const howToGetChromium =
  "Browser tests drive Debian's chromium with playwright-core. Install it with `apt-get install -y chromium` " +
  `(as root), so that ${chromiumPath} exists.`;

function chromiumInstalled(): boolean {
  try {
    accessSync(chromiumPath, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Makes sure Debian's chromium is there: when it is missing, runs `apt-get install -y chromium`
 * (works as root, e.g. in CI containers); when that is impossible, fails with what to do.
 */
export function ensureChromium(): string {
  if (chromiumInstalled()) return chromiumPath;
  const install = spawnSync('apt-get', ['install', '-y', 'chromium'], { stdio: 'inherit', timeout: 600_000 });
  if (install.status === 0 && chromiumInstalled()) return chromiumPath;
  throw new Error(`${chromiumPath} is missing and could not be installed automatically. ${howToGetChromium}`);
}

export interface BrowserHandle {
  browser: Browser;
  /** A fresh context (its own cookies); close it or the browser when done. */
  newContext(): Promise<BrowserContext>;
  close(): Promise<void>;
}

/**
 * Headless chromium in a fresh profile: playwright's `launch` makes a new temporary user-data-dir
 * per browser and removes it on close (it refuses a `--user-data-dir` argument).
 */
export async function launchBrowser(): Promise<BrowserHandle> {
  const executablePath = ensureChromium();
  const browser = await chromium.launch({
    executablePath,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  return {
    browser,
    newContext: () => browser.newContext(),
    async close() {
      await browser.close();
    },
  };
}
