import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Client, httpTransport } from '@rondo/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import { startGateway, writeConfig, type RunningGateway } from './support.js';

// Issue 38, done-when 6: an upstream's 80 MB catalog (40 pages of 2 MB) is cut to the entry's
// budget (8 MiB by default) with a warning; the gateway serves what it kept in pages a client's
// 16 MiB frame takes, and its memory stays bounded however often it is listed.

const HEAVY = fileURLToPath(new URL('./heavyCatalogUpstream.mjs', import.meta.url));
const MIB = 1024 * 1024;

/** The gateway's resident memory (kB), from /proc. */
function rssKb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
}

describe('an upstream with an 80 MB catalog', { timeout: scaled(120_000) }, () => {
  let gateway: RunningGateway;
  let client: Client;
  beforeAll(async () => {
    gateway = await startGateway(
      writeConfig({ heavy: { command: process.execPath, args: [HEAVY], namespace: '' } }),
    );
    client = new Client({ transport: httpTransport({ url: gateway.url.href }), era: '2026-07-28' });
    await client.connect();
  }, scaled(120_000));
  afterAll(async () => {
    await client?.close();
    await gateway?.close();
  });

  it('is cut to 8 MiB with a warning, listed in bounded pages, in bounded memory', async () => {
    await expect
      .poll(() => gateway.stderr(), { timeout: 60_000 })
      .toMatch(
        /upstream "heavy": tools: \d+ item\(s\) of \d+\.\d MiB left out: the list passes maxCatalogBytes \(8\.0 MiB\)/,
      );
    const sizes: number[] = [];
    const rss: number[] = [];
    for (let round = 0; round < 3; round += 1) {
      const tools = await client.listAllTools();
      sizes.push(Buffer.byteLength(JSON.stringify(tools)));
      expect(tools[0]?.name).toBe('light');
      rss.push(rssKb(gateway.process.pid!));
    }
    console.info(`served ${sizes.join(', ')} bytes; gateway RSS ${rss.join(', ')} kB`);
    // What the gateway serves is what it kept: at most the budget (and far from 80 MB).
    expect(sizes[0]).toBeLessThanOrEqual(8 * MIB + 64 * 1024);
    expect(sizes[0]).toBeGreaterThan(7 * MIB);
    expect(new Set(sizes).size).toBe(1);
    // Listing again costs no memory per answer (it grew by 300 MiB per answer before the budget).
    expect(rss[2]! - rss[0]!).toBeLessThan(64 * 1024);
    expect(rss[2]!).toBeLessThan(400 * 1024);
    expect((await client.callTool('light')).content[0]).toMatchObject({ text: 'light' });
  });
});
