import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import { z } from 'zod';
import { appTool, uiResource } from '@rondo/apps';
import { createServer, text } from '@rondo/server';
import { composeEndpoint } from '@rondo/server/endpoint';
import { startDemoHttp, type DemoHttpServer } from '../../apps/demo/src/httpApp.js';
import { CHROMIUM, CHROMIUM_ARGS, connect, hasChromium } from './browser.js';
import { repoRoot } from './demoProcess.js';

// Issue 39, point 4: the playground frames each App through its sandbox page, whose policy is a
// response header, so nothing in the App's HTML can move it. Each App below has one of the HTML
// shapes that slipped past a policy inserted after the first `<head`-like match, runs a script
// of its own (so the frame is live) and tries every way out to an origin it did not declare.

if (!hasChromium)
  console.warn(
    `App sandbox browser test skipped: ${CHROMIUM} is missing (apt-get install -y chromium)`,
  );

/** Every way out an App's script or markup has, to `leak` (an origin the App never declared). */
function escapes(leak: string, shape: string): string {
  const to = `${leak}/${shape}`;
  return (
    `<img src="${to}/markup-img">` +
    `<script src="${to}/script.js"></script>` +
    `<script>document.body.insertAdjacentHTML('beforeend', '<p data-testid="ran">ran</p>');` +
    `new Image().src = '${to}/image';` +
    `fetch('${to}/fetch').catch(() => {});` +
    `navigator.sendBeacon && navigator.sendBeacon('${to}/beacon', 'x');</script>`
  );
}

/** The four shapes, each with its escapes where the old insertion left them outside the policy. */
function shapes(leak: string): Record<string, string> {
  return {
    header_first: `<header>top</header><html><head><title>a</title></head><body>${escapes(leak, 'header_first')}</body></html>`,
    head_in_comment: `<!-- <head> --><html><head><title>b</title></head><body>${escapes(leak, 'head_in_comment')}</body></html>`,
    gt_in_attribute: `<html><head data-note="a>b"><title>c</title></head><body>${escapes(leak, 'gt_in_attribute')}</body></html>`,
    script_before_head: `<script>new Image().src = '${leak}/script_before_head/early';</script><html><head><title>d</title></head><body>${escapes(leak, 'script_before_head')}</body></html>`,
  };
}

describe.skipIf(!hasChromium)('Apps framed through the sandbox page', { timeout: 120_000 }, () => {
  let leakServer: Server;
  const leaked: string[] = [];
  let demo: DemoHttpServer;
  let browser: Browser;
  let page: Page;
  let names: string[] = [];

  beforeAll(async () => {
    leakServer = createHttpServer((req, res) => {
      leaked.push(req.url ?? '');
      res.end('');
    });
    await new Promise<void>((resolve) => leakServer.listen(0, '127.0.0.1', resolve));
    const leak = `http://127.0.0.1:${(leakServer.address() as AddressInfo).port}`;
    const server = createServer({ name: 'csp-probe', version: '1.0.0' });
    const html = shapes(leak);
    names = Object.keys(html);
    for (const name of names) {
      const uri = `ui://csp-probe/${name}.html`;
      uiResource(server, { uri, name, html: html[name]!, meta: { csp: {} } });
      appTool(
        server,
        name,
        { description: `An App shaped ${name}`, input: z.object({}), ui: { resourceUri: uri } },
        () => text(name),
      );
    }
    demo = await startDemoHttp(composeEndpoint(server), {
      host: '127.0.0.1',
      port: 0,
      publicDir: join(repoRoot, 'apps', 'demo', 'dist', 'public'),
    });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await page.goto(`${demo.url}/`);
  }, scaled(120_000));

  afterAll(async () => {
    await browser?.close();
    await demo?.close();
    await new Promise((resolve) => leakServer?.close(resolve));
  });

  it('runs each of the four shapes under its policy: none reaches an undeclared origin', async () => {
    await connect(page, 'ws');
    for (const name of names) {
      await page.getByTestId(`tool-${name}`).click();
      await page.getByTestId('detail-tool').getByTestId('run').click();
      const frame = page.locator(
        `[data-testid="app-frame"][data-uri="ui://csp-probe/${name}.html"]`,
      );
      await frame.waitFor({ timeout: 20_000 });
      expect(await frame.getAttribute('sandbox')).toBe('allow-scripts');
      expect(await frame.getAttribute('src')).toMatch(/^\/app-sandbox\?csp=default-src%20'none'/);
      const app = page.frameLocator(
        `[data-testid="app-frame"][data-uri="ui://csp-probe/${name}.html"]`,
      );
      // The App's own inline script ran (the policy allows inline code): the frame is live.
      await expect.poll(() => app.getByTestId('ran').count(), { timeout: 20_000 }).toBe(1);
    }
    // Give any load still in flight its chance to arrive.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(leaked).toEqual([]);
  });

  it('serves the sandbox page only with a policy, as its response header', async () => {
    const policy = "default-src 'none'; script-src 'unsafe-inline'";
    const served = await fetch(`${demo.url}/app-sandbox?csp=${encodeURIComponent(policy)}`);
    expect(served.headers.get('content-security-policy')).toBe(policy);
    expect((await fetch(`${demo.url}/app-sandbox`)).status).toBe(400);
    expect((await fetch(`${demo.url}/app-sandbox?csp=a%0d%0ab`)).status).toBe(400);
  });
});
