// Debian's Chromium for the browser tests, driven by playwright-core (which downloads no browser).
// Where Chromium is missing the tests skip, saying so loudly; .ci/run installs it with apt-get.
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Whether Chromium is there; when not, prints why `what` is skipped. */
export function chromiumAvailable(what: string): boolean {
  const available = existsSync(CHROMIUM);
  if (!available) {
    console.warn(`\n${'!'.repeat(78)}\n!! SKIPPED: ${what} needs Chromium at ${CHROMIUM}.\n!! Install it (apt-get install -y chromium) or set CHROMIUM_PATH; .ci/run does this.\n${'!'.repeat(78)}\n`);
  }
  return available;
}

/** The folder screenshots go to (artifacts/ is gitignored). */
export function artifactsDir(name: string): string {
  const dir = join(process.cwd(), 'artifacts', name);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/**
 * Headless Chromium with a fresh profile and the flags this closed network needs (no background
 * networking, no updates, no sync). `close` also removes the profile.
 */
export async function launchChromium(): Promise<{ browser: BrowserContext; close: () => Promise<void> }> {
  const profile = mkdtempSync(join(tmpdir(), 'chromium-profile-'));
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  return {
    browser,
    close: async () => {
      await browser.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * Collects a page's script errors and console errors into `errors`, except the browser's own
 * "Failed to load resource … 4xx" lines: the inspector answers 4xx on purpose (the token prompt's
 * 401, unknown ids), and the browser logs each of those as a console error.
 */
export function collectConsoleErrors(page: Page, errors: string[]): void {
  page.on('console', (m) => {
    if (m.type() === 'error' && !/^Failed to load resource: the server responded with a status of 4\d\d/.test(m.text())) errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(String(e)));
}
