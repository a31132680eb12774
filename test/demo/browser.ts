import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { repoRoot } from './demoProcess.js';

/** The system Chromium the browser tests drive (apt-get install -y chromium). */
export const CHROMIUM = '/usr/bin/chromium';
/** Headless, no sandbox, no GPU, and nothing that reaches for the network. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-quic',
  '--no-first-run',
  '--disable-component-update',
  '--disable-sync',
];
/** Where the screenshots go. */
export const screenshots = join(repoRoot, 'test-results', 'screenshots');
/** Whether Chromium is installed; the browser suites skip without it, saying so. */
export const hasChromium = existsSync(CHROMIUM);

/** A full-page screenshot named `name`. */
export async function snap(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(screenshots, `${name}.png`), fullPage: true });
}

/**
 * Connects the page over a transport and waits until the catalog is listed. Connected over that
 * transport already (the page connects on load), it disconnects first, so each caller gets a
 * connection of its own.
 */
export async function connect(page: Page, transport: 'ws' | 'http'): Promise<void> {
  // The page connects on load: let that settle first, or the click below would race it.
  const status = page.getByTestId('connection-status');
  await expect
    .poll(() => status.getAttribute('data-state'), { timeout: 20_000 })
    .toMatch(/^(idle|ok|error)$/);
  await page.getByLabel('Transport').selectOption(transport);
  const button = page.getByTestId('connect');
  if ((await button.textContent()) === 'Disconnect') {
    await button.click();
    await expect.poll(() => button.textContent(), { timeout: 15_000 }).toBe('Connect');
  }
  await button.click();
  const expected = transport === 'ws' ? 'Connected over WebSocket' : 'Connected over HTTP';
  await expect
    .poll(() => page.getByTestId('connection-status').textContent(), { timeout: 15_000 })
    .toBe(expected);
}
