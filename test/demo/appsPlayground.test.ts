import { mkdirSync } from 'node:fs';
import { chromium, type Browser, type FrameLocator, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import { CHROMIUM, CHROMIUM_ARGS, connect, hasChromium, screenshots, snap } from './browser.js';
import { startDemo, type RunningDemo } from './demoProcess.js';
import { decodePng } from './pngPixels.js';

if (!hasChromium)
  console.warn(
    `MCP Apps browser test skipped: ${CHROMIUM} is missing (apt-get install -y chromium)`,
  );

/** The colour painted at the middle of the lamp, read from a screenshot of it. */
async function lampPixel(app: FrameLocator): Promise<[number, number, number]> {
  const pixels = decodePng(await app.getByTestId('lamp').screenshot());
  const [r, g, b] = pixels.at(Math.floor(pixels.width / 2), Math.floor(pixels.height / 2));
  return [r, g, b];
}

/** The tools/call requests the page sent, by tool name, as its client traffic log shows them. */
async function toolCallsSent(page: Page): Promise<string[]> {
  const entries = await page.getByTestId('client-traffic-entry').allTextContents();
  return entries
    .filter((entry) => entry.includes('tools/call'))
    .flatMap((entry) => /"name":\s*"([a-z_]+)"/.exec(entry)?.[1] ?? []);
}

describe.skipIf(!hasChromium)('the lamp MCP App in the playground', { timeout: 90_000 }, () => {
  let demo: RunningDemo;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    mkdirSync(screenshots, { recursive: true });
    demo = await startDemo(['--no-prolog']);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await page.goto(`${demo.url}/`);
  }, scaled(90_000));

  afterAll(async () => {
    await browser?.close();
    await demo?.stop();
  });

  it('lists the App tool for the model and keeps the app-only one out of the list', async () => {
    await connect(page, 'ws');
    await expect.poll(() => page.getByTestId('tool-show_lamp').count()).toBe(1);
    expect(await page.getByTestId('tool-toggle_lamp').count()).toBe(0);
  });

  it('renders the App in a sandboxed frame with the tool input and result, green on screen', async () => {
    await page.getByTestId('tool-show_lamp').click();
    const detail = page.getByTestId('detail-tool');
    await detail.getByLabel('color').selectOption('green');
    await detail.getByTestId('run').click();

    const frame = page.getByTestId('app-frame');
    await frame.waitFor({ timeout: 20_000 });
    expect(await frame.getAttribute('sandbox')).toBe('allow-scripts');
    expect(await frame.getAttribute('data-uri')).toBe('ui://rondo-demo/lamp.html');
    const app = page.frameLocator('[data-testid="app-frame"]');
    await expect
      .poll(() => app.getByTestId('lamp-label').textContent(), { timeout: 20_000 })
      .toBe('The lamp is green.');
    expect(await app.getByTestId('lamp-asked').textContent()).toBe('Asked for green.');
    const [r, g, b] = await lampPixel(app);
    expect(g, `green lamp pixel ${r},${g},${b}`).toBeGreaterThan(120);
    expect(r, `green lamp pixel ${r},${g},${b}`).toBeLessThan(80);
    await snap(page, 'apps-lamp-green');
  });

  it('calls the app-only tool back through the host when switched, and paints the lamp red', async () => {
    const app = page.frameLocator('[data-testid="app-frame"]');
    await app.getByTestId('lamp-toggle').click();
    await expect
      .poll(() => app.getByTestId('lamp-label').textContent(), { timeout: 20_000 })
      .toBe('The lamp is red.');
    // The host relayed it: the page's own MCP client sent the call to the server.
    expect(await toolCallsSent(page)).toContain('toggle_lamp');
    const [r, g, b] = await lampPixel(app);
    expect(r, `red lamp pixel ${r},${g},${b}`).toBeGreaterThan(150);
    expect(g, `red lamp pixel ${r},${g},${b}`).toBeLessThan(80);
    await snap(page, 'apps-lamp-red');
  });
});
