import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import {
  legacySession,
  postModern as modern,
  startDemo,
  type RunningDemo,
  type WireJson,
} from './demoProcess.js';

const MODERN = '2026-07-28';
const LEGACY = '2025-06-18';
/** The demo's default ring size and stream limit (apps/demo/src/serverTraffic.ts, trafficRoutes.ts). */
const CAPACITY = 200;
const MAX_STREAMS = 8;
const MAX_STREAMS_PER_CLIENT = 2;
async function traffic(url: string, query = ''): Promise<WireJson> {
  const response = await fetch(`${url}/traffic${query}`);
  expect(response.status).toBe(200);
  return response.json();
}

/** A GET with headers fetch will not set (Host) and the status it got. */
function rawGet(url: string, path: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(new URL(path, url), { headers }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.once('error', reject);
    request.end();
  });
}

/** A `/traffic/stream` opened from `localAddress` (a client of its own), and how to close it. */
function openStream(url: string, localAddress: string): Promise<{ status: number; close(): void }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(new URL('/traffic/stream', url), { localAddress }, (response) => {
      const status = response.statusCode ?? 0;
      if (status !== 200) response.resume();
      resolve({ status, close: () => request.destroy() });
    });
    request.once('error', reject);
    request.end();
  });
}

/** Reads a traffic stream until `until` holds for the text so far. */
async function readStream(body: ReadableStream<Uint8Array>, until: (text: string) => boolean) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  while (!until(text)) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  await reader.cancel();
  return text;
}

describe('the demo server traffic at /traffic', { timeout: scaled(60_000) }, () => {
  let demo: RunningDemo;

  beforeAll(async () => {
    demo = await startDemo(['--no-prolog']);
  }, scaled(60_000));
  afterAll(async () => {
    await demo?.stop();
  });

  it('records each round of a modern call with its era, target, outcome and duration', async () => {
    const before = (await traffic(demo.url)).total;
    const first = await modern(demo.url, 1, 'tools/call', {
      name: 'send_postcard',
      arguments: { to: 'Ada', message: 'Hi' },
    });
    expect(first.result.resultType).toBe('input_required');
    const second = await modern(demo.url, 2, 'tools/call', {
      name: 'send_postcard',
      arguments: { to: 'Ada', message: 'Hi' },
      requestState: first.result.requestState,
      inputResponses: {
        confirm: { action: 'accept', content: { confirm: true, delivery: 'standard' } },
      },
    });
    expect(second.result.content[0].text).toContain('Postcard sent to Ada');
    const unknown = await modern(demo.url, 3, 'tools/call', { name: 'nope', arguments: {} });
    expect(unknown.error.code).toBe(-32602);

    const { records, total } = await traffic(demo.url);
    expect(total).toBe(before + 3);
    const [nope, round2, round1] = records;
    expect(round1).toMatchObject({
      method: 'tools/call',
      target: 'send_postcard',
      era: 'modern',
      revision: MODERN,
      round: 1,
      outcome: 'ok',
      result: 'input_required',
    });
    expect(round2).toMatchObject({ target: 'send_postcard', round: 2, result: 'complete' });
    expect(nope).toMatchObject({ target: 'nope', outcome: 'error', code: -32602, round: 1 });
    expect(nope.message).toContain('Unknown tool');
    for (const record of [round1, round2, nope]) {
      expect(record.ms).toBeGreaterThanOrEqual(0);
      expect(Number.isNaN(Date.parse(record.time))).toBe(false);
      expect(record).not.toHaveProperty('principal'); // the demo authenticates nobody
    }
  });

  it('records a legacy client as the legacy era, initialize included, with the negotiated revision', async () => {
    const { total } = await traffic(demo.url);
    const tools = await legacySession(demo.url, LEGACY);
    expect(tools.result.tools.length).toBeGreaterThan(0);
    const { records } = await traffic(demo.url, `?after=${total}`);
    expect(records).toMatchObject([
      { method: 'tools/list', era: 'legacy', revision: LEGACY, round: 1, outcome: 'ok' },
      { method: 'initialize', era: 'legacy', revision: LEGACY, outcome: 'ok' },
    ]);
  });

  it('does not record its own reads: /traffic is not MCP', async () => {
    const { total } = await traffic(demo.url);
    await traffic(demo.url);
    await traffic(demo.url, '?after=0');
    expect((await traffic(demo.url)).total).toBe(total);
  });

  it(`keeps only the last ${CAPACITY} calls however many arrive`, async () => {
    const calls = CAPACITY + 25;
    for (let start = 0; start < calls; start += 25) {
      await Promise.all(
        Array.from({ length: 25 }, (_, index) =>
          modern(demo.url, 100 + start + index, 'tools/list'),
        ),
      );
    }
    const { capacity, total, records } = await traffic(demo.url);
    expect(capacity).toBe(CAPACITY);
    expect(total).toBeGreaterThan(calls);
    expect(records).toHaveLength(CAPACITY);
    const seqs = records.map((record: { seq: number }) => record.seq);
    expect(seqs[0]).toBe(total); // newest first
    expect(seqs.at(-1)).toBe(total - CAPACITY + 1);
    expect(records.every((record: { method: string }) => record.method === 'tools/list')).toBe(
      true,
    );
    const { records: newer } = await traffic(demo.url, `?after=${total - 3}`);
    expect(newer.map((record: { seq: number }) => record.seq)).toEqual([
      total,
      total - 1,
      total - 2,
    ]);
  });

  it('streams each new call after the last id the client saw', async () => {
    const { total } = await traffic(demo.url);
    const stream = await fetch(`${demo.url}/traffic/stream`, {
      headers: { 'last-event-id': String(total) },
    });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toContain('text/event-stream');
    await modern(demo.url, 900, 'tools/call', { name: 'nope', arguments: {} });
    const text = await readStream(stream.body!, (so) => so.includes('event: call'));
    expect(text).toContain(`event: start\ndata: {"capacity":${CAPACITY},"total":${total}}`);
    const data = /event: call\ndata: (.*)\n/.exec(text)?.[1];
    expect(JSON.parse(data!)).toMatchObject({ seq: total + 1, target: 'nope', outcome: 'error' });
    expect(text).toContain(`id: ${total + 1}\n`);
  });

  it(`refuses more than ${MAX_STREAMS} streams at once, ${MAX_STREAMS_PER_CLIENT} per client, and a bad "after"`, async () => {
    const held: { close(): void }[] = [];
    const open = async (address: string): Promise<number> => {
      const stream = await openStream(demo.url, address);
      if (stream.status === 200) held.push(stream);
      return stream.status;
    };
    try {
      // Each loopback address is a client of its own to the demo.
      expect(await open('127.0.0.10')).toBe(200);
      expect(await open('127.0.0.10')).toBe(200);
      expect(await open('127.0.0.10')).toBe(503);
      // One stream at a time: the server may not have seen the previous test's stream close yet.
      const perAddress = new Map<string, number>();
      let client = 11;
      await expect
        .poll(async () => {
          const address = `127.0.0.${client}`;
          if ((await open(address)) === 200)
            perAddress.set(address, (perAddress.get(address) ?? 0) + 1);
          if ((perAddress.get(address) ?? 0) >= MAX_STREAMS_PER_CLIENT) client += 1;
          return held.length;
        })
        .toBe(MAX_STREAMS);
      expect(await open('127.0.0.99')).toBe(503);
    } finally {
      for (const stream of held) stream.close();
    }
    expect((await fetch(`${demo.url}/traffic?after=-1`)).status).toBe(400);
    // A closed stream frees its place.
    await expect
      .poll(async () => {
        const abort = new AbortController();
        const again = await fetch(`${demo.url}/traffic/stream`, { signal: abort.signal });
        abort.abort();
        return again.status;
      })
      .toBe(200);
  });

  it('guards /traffic like /mcp: a foreign Host or Origin is refused', async () => {
    expect(await rawGet(demo.url, '/traffic', { host: 'evil.example.com' })).toBe(403);
    expect(await rawGet(demo.url, '/traffic/stream', { origin: 'http://evil.example.com' })).toBe(
      403,
    );
    expect(await rawGet(demo.url, '/traffic', { origin: demo.url })).toBe(200);
  });
});
