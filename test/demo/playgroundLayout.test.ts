import { mkdirSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import { CHROMIUM, CHROMIUM_ARGS, connect, hasChromium, screenshots, snap } from './browser.js';
import { startDemo, type RunningDemo } from './demoProcess.js';

// Issue 29: the playground on a phone and on a laptop, and what it says once connected.

/** The ids of the requests the page sent, in the order the client traffic log shows them. */
async function sentIds(page: Page): Promise<number[]> {
  return page
    .locator('[data-testid="client-traffic-entry"].out pre')
    .evaluateAll((pres) => pres.map((pre) => Number(JSON.parse(pre.textContent ?? '{}').id)));
}

/** How far the client traffic log is from showing its newest entry, in pixels (0: it shows it). */
function distanceFromNewest(page: Page): Promise<number> {
  return page
    .getByTestId('client-traffic-log')
    .evaluate((list) => list.scrollHeight - list.clientHeight - list.scrollTop);
}

describe.skipIf(!hasChromium)(
  'the playground layout and states',
  { timeout: scaled(120_000) },
  () => {
    let demo: RunningDemo;
    let browser: Browser;

    beforeAll(async () => {
      mkdirSync(screenshots, { recursive: true });
      demo = await startDemo([], { RONDO_DEMO_CLOCK_MS: '200' });
      browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    }, scaled(60_000));

    afterAll(async () => {
      await browser?.close();
      await demo?.stop();
    });

    it.each([400, 1280])(
      'at %i px wide shows the connected state in full, with no horizontal scrollbar',
      async (width) => {
        const page = await browser.newPage({ viewport: { width, height: 900 } });
        try {
          await page.goto(`${demo.url}/`);
          const status = page.getByTestId('connection-status');
          await expect
            .poll(() => status.textContent(), { timeout: scaled(20_000) })
            .toBe('Connected over WebSocket');
          expect(await page.getByTestId('connect').textContent()).toBe('Disconnect');
          // The whole status is on screen: inside the viewport, and not clipped by its box.
          const box = (await status.boundingBox())!;
          expect(box.x).toBeGreaterThanOrEqual(0);
          expect(box.x + box.width).toBeLessThanOrEqual(width);
          expect(await status.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
          expect(await status.isVisible()).toBe(true);
          await snap(page, `playground-${width}px`);
          const scroll = await page.locator('html').evaluate((root) => ({
            scrollWidth: root.scrollWidth,
            clientWidth: root.clientWidth,
          }));
          expect(scroll.scrollWidth).toBeLessThanOrEqual(scroll.clientWidth);
        } finally {
          await page.close();
        }
      },
    );

    it('disconnects with the same button, and goes on numbering requests after a reconnect', async () => {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      try {
        await page.goto(`${demo.url}/`);
        await connect(page, 'http');
        const before = await sentIds(page);
        await page.getByTestId('connect').click();
        await expect
          .poll(() => page.getByTestId('connection-status').textContent())
          .toBe('Not connected');
        expect(await page.getByTestId('connect').textContent()).toBe('Connect');
        await connect(page, 'http');
        const after = (await sentIds(page)).slice(before.length);
        expect(after.length).toBeGreaterThan(0);
        expect(Math.min(...after)).toBeGreaterThan(Math.max(...before));
        expect(new Set([...before, ...after]).size).toBe(before.length + after.length);
      } finally {
        await page.close();
      }
    });

    it('keeps the newest client traffic in view, an entry opened to read included, until the reader scrolls up', async () => {
      const page = await browser.newPage({ viewport: { width: 1280, height: 500 } });
      try {
        await page.goto(`${demo.url}/`);
        await connect(page, 'ws');
        const log = page.getByTestId('client-traffic-log');
        await page.getByTestId('listen').click(); // the clock resource changes every 200 ms
        await expect
          .poll(() => log.evaluate((list) => list.scrollHeight > list.clientHeight + 200), {
            timeout: scaled(30_000),
          })
          .toBe(true);
        const count = await page.getByTestId('client-traffic-entry').count();
        await expect
          .poll(() => page.getByTestId('client-traffic-entry').count(), { timeout: scaled(15_000) })
          .toBeGreaterThan(count + 3);
        expect(await distanceFromNewest(page)).toBeLessThanOrEqual(8);
        // Opening an entry to read it makes the log taller; the newest entries still come into view.
        // The click goes to the entry where it is: Playwright's own click scrolls the entry into
        // view first, and when entries keep moving on a busy machine it retries with the entry
        // centred, which scrolls the log up as a reader would (and rightly stops the following).
        const open = await log.evaluate((list) => {
          const details = list.lastElementChild!.querySelector('details')!;
          details.querySelector('summary')!.click();
          return details.open;
        });
        expect(open).toBe(true);
        const opened = await page.getByTestId('client-traffic-entry').count();
        await expect
          .poll(() => page.getByTestId('client-traffic-entry').count(), { timeout: scaled(15_000) })
          .toBeGreaterThan(opened + 3);
        expect(await distanceFromNewest(page)).toBeLessThanOrEqual(8);
        // A reader who scrolls up keeps their place while entries arrive.
        await log.evaluate((list) => {
          list.scrollTop = 0;
          list.dispatchEvent(new Event('scroll'));
        });
        const later = await page.getByTestId('client-traffic-entry').count();
        await expect
          .poll(() => page.getByTestId('client-traffic-entry').count(), { timeout: scaled(15_000) })
          .toBeGreaterThan(later + 3);
        expect(await log.evaluate((list) => list.scrollTop)).toBe(0);
        await page.getByTestId('listen').click();
      } finally {
        await page.close();
      }
    });

    it('stops the progress bar at the result, and asks for input in plain words', async () => {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      try {
        await page.goto(`${demo.url}/`);
        await connect(page, 'http');
        const detail = page.getByTestId('detail-tool');
        await page.getByTestId('tool-brew_tea').click();
        await detail.getByLabel('seconds').fill('2');
        await detail.getByTestId('run').click();
        await expect
          .poll(() => page.getByTestId('result-text').first().textContent(), {
            timeout: scaled(20_000),
          })
          .toContain('tea is ready');
        const bar = page.getByTestId('progress-bar').first();
        await expect
          .poll(() =>
            bar.evaluate((el) => [
              (el as unknown as { value: number }).value,
              el.matches(':indeterminate'),
            ]),
          )
          .toEqual([5, false]);
        expect(await bar.getAttribute('data-state')).toBe('done');

        await page.getByTestId('tool-plan_trip').click();
        await detail.getByLabel('traveller').fill('Lin');
        await detail.getByTestId('run').click();
        const card = page.getByTestId('elicitation-destination');
        await card.waitFor({ timeout: scaled(15_000) });
        const text = (await card.textContent()) ?? '';
        expect(text).toContain('The server asks you to fill in this form.');
        expect(text).not.toMatch(/input request|elicitation\/create/);
        await card.getByTestId('cancel').click();
      } finally {
        await page.close();
      }
    });
  },
);
