import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, httpTransport, McpError } from '@rondo/client';
import { createServer } from '@rondo/server';
import { composeEndpoint } from '@rondo/server/endpoint';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import { CHROMIUM, CHROMIUM_ARGS, connect, hasChromium, screenshots, snap } from './browser.js';
import { startDemoHttp } from '../../apps/demo/src/httpApp.js';
import { postModern, repoRoot, startDemo, type RunningDemo } from './demoProcess.js';

// Issue 42, done-when 4 (the playground half): the demo serves event types (bird_sighted, raised by
// the Prolog bird sightings' report_sighting through events/1 and mcp_emit/3; clock_tick, raised
// by the clock), and the playground's Events panel lists them, watches one by push
// (events/stream, Stop cancels it) and polls it (events/poll from its cursor), in Chromium.

/** An occurrence as the Events panel shows it. */
interface ShownOccurrence {
  eventId: string;
  name: string;
  via: string;
  data: unknown;
}

/** The occurrences the panel shows, newest first. */
function shownOccurrences(page: Page): Promise<ShownOccurrence[]> {
  return page.getByTestId('event-occurrence').evaluateAll((items) =>
    items.map((item) => ({
      eventId: item.getAttribute('data-event-id') ?? '',
      name: item.getAttribute('data-name') ?? '',
      via: item.getAttribute('data-via') ?? '',
      data: JSON.parse(item.querySelector('[data-testid="event-data"]')?.textContent ?? 'null'),
    })),
  );
}

/** The outcomes the server traffic panel shows for `method`, newest first. */
function serverOutcomes(page: Page, method: string): Promise<string[]> {
  return page
    .locator(`[data-testid="server-traffic-entry"][data-method="${method}"]`)
    .evaluateAll((rows) =>
      rows.map((row) => row.querySelector('[data-testid="outcome"]')?.textContent ?? ''),
    );
}

let demo: RunningDemo;
/** Why the Prolog sightings are off, when they are (no swipl): their parts are skipped. */
let sightingsOff: string | undefined;

beforeAll(async () => {
  demo = await startDemo([], { RONDO_DEMO_CLOCK_MS: '300' });
  sightingsOff = /note: (.*sightings.*)/.exec(demo.output())?.[1];
  if (sightingsOff) console.warn(`bird_sighted parts skipped: ${sightingsOff}`);
}, scaled(90_000));
afterAll(async () => demo?.stop());

async function modernClient(): Promise<Client> {
  const client = new Client({
    transport: httpTransport({ url: `${demo.url}/mcp` }),
    era: '2026-07-28',
  });
  await client.connect();
  return client;
}

describe("the demo's event types", { timeout: scaled(60_000) }, () => {
  it('lists bird_sighted and clock_tick to a modern client, and nothing to a legacy one', async () => {
    const client = await modernClient();
    try {
      const types = await client.serverEvents.listAll();
      const names = types.map((type) => type.name);
      expect(names).toContain('clock_tick');
      if (sightingsOff) return;
      expect(names).toEqual(['bird_sighted', 'clock_tick']);
      const [birdSighted] = types;
      expect(birdSighted).toMatchObject({
        title: 'Bird sighted',
        delivery: ['poll', 'push'],
        payloadSchema: { required: ['bird', 'place', 'count'] },
      });
      // The subscription may name a bird, one of those the expert of birds.pl knows.
      expect(birdSighted!.inputSchema).toMatchObject({
        properties: { bird: { enum: expect.arrayContaining(['mallard', 'osprey']) } },
      });
    } finally {
      await client.close();
    }
    const legacy = new Client({
      transport: httpTransport({ url: `${demo.url}/mcp` }),
      era: '2025-11-25',
    });
    await legacy.connect();
    try {
      expect(legacy.serverEvents.available).toBe(false);
    } finally {
      await legacy.close();
    }
  });

  it('delivers a reported sighting to a poll and to the push streams whose bird matches', async (context) => {
    if (sightingsOff) return context.skip();
    const client = await modernClient();
    const mallards = client.serverEvents.stream({
      name: 'bird_sighted',
      arguments: { bird: 'mallard' },
    });
    const ospreys = client.serverEvents.stream({
      name: 'bird_sighted',
      arguments: { bird: 'osprey' },
    });
    try {
      const now = await client.serverEvents.poll({ name: 'bird_sighted', cursor: null });
      // The streams are open once their first cursor (from `active`) is there.
      await expect
        .poll(() => mallards.cursor && ospreys.cursor, { timeout: scaled(10_000) })
        .toBeTruthy();
      const reported = await client.callTool('report_sighting', {
        bird: 'mallard',
        place: 'the mill pond',
        count: 3,
      });
      expect(reported.isError).not.toBe(true);
      const polled = await client.serverEvents.poll({ name: 'bird_sighted', cursor: now.cursor });
      expect(polled.events).toHaveLength(1);
      expect(polled.events[0]).toMatchObject({
        name: 'bird_sighted',
        data: { bird: 'mallard', place: 'the mill pond', count: 3 },
      });
      const pushed = await mallards[Symbol.asyncIterator]().next();
      expect(pushed.value).toMatchObject({
        eventId: polled.events[0]!.eventId,
        data: { bird: 'mallard' },
      });
      // The osprey watcher heard nothing: after an osprey report, its first occurrence is that.
      await client.callTool('report_sighting', { bird: 'osprey', place: 'the estuary' });
      const osprey = await ospreys[Symbol.asyncIterator]().next();
      expect(osprey.value).toMatchObject({
        data: { bird: 'osprey', place: 'the estuary', count: 1 },
      });
    } finally {
      await mallards.close();
      await ospreys.close();
      await client.close();
    }
  });

  it("answers the README's try lines, and a second poll from their cursor has the sighting", async (context) => {
    if (sightingsOff) return context.skip();
    const readme = readFileSync(join(repoRoot, 'apps', 'demo', 'README.md'), 'utf8');
    const block = /## Events[\s\S]*?```jsonl try\n([\s\S]*?)```/.exec(readme)?.[1];
    const lines = (block ?? '')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines.map((line) => line.method)).toEqual(['events/list', 'events/poll', 'tools/call']);
    const answers = [];
    for (const line of lines) {
      const answer = await postModern(demo.url, line.id, line.method, line.params);
      expect(answer.error, JSON.stringify(answer)).toBeUndefined();
      answers.push(answer.result);
    }
    const [listed, polled, called] = answers;
    expect(listed.events.map((type: { name: string }) => type.name)).toContain('bird_sighted');
    expect(called.isError).not.toBe(true);
    const { name, arguments: args } = lines[1].params;
    const again = await postModern(demo.url, 4, 'events/poll', {
      name,
      arguments: args,
      cursor: polled.cursor,
    });
    expect(again.result.events.map((event: { data: unknown }) => event.data)).toEqual([
      { bird: 'mallard', place: 'the mill pond', count: 1 },
    ]);
  });

  it('raises clock_tick as the clock changes, and refuses a forged cursor', async () => {
    const client = await modernClient();
    try {
      const now = await client.serverEvents.poll({ name: 'clock_tick', cursor: null });
      await expect
        .poll(
          async () =>
            (await client.serverEvents.poll({ name: 'clock_tick', cursor: now.cursor })).events
              .length,
          { timeout: scaled(10_000) },
        )
        .toBeGreaterThan(0);
      const { events } = await client.serverEvents.poll({ name: 'clock_tick', cursor: now.cursor });
      expect(events[0]!.data).toMatchObject({ ticks: expect.any(Number), now: expect.any(String) });
      const forged = client.serverEvents.poll({ name: 'clock_tick', cursor: `${now.cursor}x` });
      await expect(forged).rejects.toBeInstanceOf(McpError);
      await expect(forged).rejects.toMatchObject({ code: -32602 });
    } finally {
      await client.close();
    }
  });
});

describe.skipIf(!hasChromium)('the Events panel in Chromium', { timeout: scaled(90_000) }, () => {
  let browser: Browser;
  let page: Page;
  /** Scripts that threw in the page: none may. */
  const pageErrors: string[] = [];

  beforeAll(async () => {
    mkdirSync(screenshots, { recursive: true });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    page = await browser.newPage({ viewport: { width: 1400, height: 1100 } });
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(`${demo.url}/`);
  }, scaled(60_000));
  afterAll(async () => browser?.close());
  afterEach(() => expect(pageErrors).toEqual([]));

  it('watches bird_sighted by push, polls it from its cursor, and Stop ends the stream', async (context) => {
    if (sightingsOff) return context.skip();
    await connect(page, 'ws');
    const status = page.getByTestId('events-status');
    const picker = page.getByLabel('Event type');
    expect(await picker.locator('option').allTextContents()).toEqual([
      'Bird sighted',
      'Clock tick',
    ]);
    await picker.selectOption('bird_sighted');
    expect(await page.getByTestId('event-description').textContent()).toContain(
      'Delivery: poll, push.',
    );
    // The generated form offers the expert's birds; left empty, the subscription hears every bird.
    const form = page.getByTestId('event-form');
    expect(await form.getByLabel('bird').locator('option').allTextContents()).toContain('mallard');

    await page.getByTestId('event-poll').click();
    await expect.poll(() => status.textContent()).toContain('the cursor marks now');
    await page.getByTestId('event-watch').click();
    await expect
      .poll(() => status.textContent(), { timeout: scaled(10_000) })
      .toBe('Watching bird_sighted by push: the stream is open.');

    // Report a sighting from the playground's own tool form.
    await page.getByTestId('tool-report_sighting').click();
    const detail = page.getByTestId('detail-tool');
    await detail.getByLabel('bird').selectOption('mallard');
    await detail.getByLabel('place').fill('the mill pond');
    await detail.getByTestId('run').click();
    await expect
      .poll(() => page.getByTestId('result-text').first().textContent(), {
        timeout: scaled(15_000),
      })
      .toBe('Sighting reported: mallard (1) at the mill pond.');
    await expect
      .poll(async () => (await shownOccurrences(page)).map((shown) => shown.via), {
        timeout: scaled(10_000),
      })
      .toEqual(['push']);
    const [pushed] = await shownOccurrences(page);
    expect(pushed).toMatchObject({
      name: 'bird_sighted',
      data: { bird: 'mallard', place: 'the mill pond', count: 1 },
    });
    expect(pushed!.eventId).toMatch(/^evt_/);

    // Poll answers the same occurrence (same eventId) from the cursor the first poll took.
    await page.getByTestId('event-poll').click();
    await expect.poll(() => status.textContent()).toBe('Polled bird_sighted: 1 new occurrence.');
    const [polled] = await shownOccurrences(page);
    expect(polled).toEqual({ ...pushed, via: 'poll' });
    await page.getByTestId('events-panel').scrollIntoViewIfNeeded();
    await snap(page, 'events-watch-and-poll');

    // Stop cancels the stream: the server records a call once it ended, so the stream's row
    // appears in the server traffic only now; and a later sighting (reported by another client)
    // reaches the page only when it polls.
    const streamsEnded = (await serverOutcomes(page, 'events/stream')).length;
    await page.getByTestId('event-stop').click();
    await expect.poll(() => status.textContent()).toBe('Stopped watching bird_sighted.');
    await expect
      .poll(async () => (await serverOutcomes(page, 'events/stream')).length, {
        timeout: scaled(10_000),
      })
      .toBe(streamsEnded + 1);
    const other = await modernClient();
    try {
      await other.callTool('report_sighting', { bird: 'osprey', place: 'the estuary', count: 2 });
    } finally {
      await other.close();
    }
    await page.getByTestId('event-poll').click();
    await expect.poll(() => status.textContent()).toBe('Polled bird_sighted: 1 new occurrence.');
    const shown = await shownOccurrences(page);
    expect(shown.map((entry) => entry.via)).toEqual(['poll', 'poll', 'push']);
    expect(shown[0]!.data).toEqual({ bird: 'osprey', place: 'the estuary', count: 2 });
  });

  it('watches clock_tick over HTTP (an SSE answer) until Stop closes it', async () => {
    await connect(page, 'http');
    await page.getByTestId('clear-event-feed').click();
    await page.getByLabel('Event type').selectOption('clock_tick');
    await page.getByTestId('event-watch').click();
    await expect
      .poll(
        async () =>
          (await shownOccurrences(page)).filter((shown) => shown.name === 'clock_tick').length,
        { timeout: scaled(10_000) },
      )
      .toBeGreaterThanOrEqual(2);
    const ticks = (await shownOccurrences(page)).map(
      (shown) => (shown.data as { ticks: number }).ticks,
    );
    // Newest first: the ticks count down the list.
    expect(ticks).toEqual([...ticks].sort((a, b) => b - a));
    await page.getByTestId('event-stop').click();
    await expect
      .poll(() => page.getByTestId('events-status').textContent())
      .toBe('Stopped watching clock_tick.');
    // Nothing arrives once stopped, although the clock goes on ticking.
    const stopped = (await shownOccurrences(page)).length;
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect((await shownOccurrences(page)).length).toBe(stopped);
    expect(await page.getByTestId('event-stop').isDisabled()).toBe(true);
  });

  it('says why there is nothing to watch on a server without the Events extension', async () => {
    const server = createServer({ name: 'no-events', version: '1.0.0' });
    const plain = await startDemoHttp(composeEndpoint(server), {
      host: '127.0.0.1',
      port: 0,
      publicDir: join(repoRoot, 'apps', 'demo', 'dist', 'public'),
    });
    const other = await browser.newPage();
    try {
      await other.goto(`${plain.url}/`);
      await expect
        .poll(() => other.getByTestId('connection-status').textContent(), {
          timeout: scaled(20_000),
        })
        .toBe('Connected over WebSocket');
      expect(await other.getByTestId('events-absent').textContent()).toContain(
        'does not announce the Events extension (io.modelcontextprotocol/events)',
      );
      expect(await other.getByTestId('event-watch').count()).toBe(0);
    } finally {
      await other.close();
      await plain.close();
    }
  });
});
