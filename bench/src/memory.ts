import autocannon from 'autocannon';
import { ServerChild } from './child.js';
import { openLegacySession } from './load/http.js';
import type { BenchOptions } from './options.js';
import { modernEcho, modernHeaders } from './wire.js';

/** The memory checks' results, bytes after a full GC in the server. */
export interface MemoryResult {
  /** RSS and heap after `baselineRequests`, then after `requests` modern calls in all. */
  growth: {
    baselineRequests: number;
    requests: number;
    rssAfterBaseline: number;
    rssAfterAll: number;
    heapAfterBaseline: number;
    heapAfterAll: number;
    errors: number;
  };
  /** RSS of an idle server, then with `count` idle legacy sessions open. */
  sessions: {
    count: number;
    rssIdle: number;
    rssWithSessions: number;
    heapIdle: number;
    heapWithSessions: number;
  };
}

const RONDO_HTTP = { script: 'rondo', args: ['--transport', 'http-node'] } as const;

async function modernCalls(url: string, amount: number): Promise<number> {
  if (amount <= 0) return 0;
  const result = await autocannon({
    url,
    method: 'POST',
    connections: 50,
    amount,
    timeout: 20,
    headers: modernHeaders('tools/call', 'echo'),
    body: modernEcho(1),
  });
  return result.errors + result.timeouts + result.non2xx;
}

/** RSS after many modern requests against RSS after a few: growth beyond noise is a leak. */
async function measureGrowth(
  options: BenchOptions,
  log: (line: string) => void,
): Promise<MemoryResult['growth']> {
  const child = await ServerChild.start({ ...RONDO_HTTP, args: [...RONDO_HTTP.args] });
  try {
    const url = child.url('http');
    let errors = await modernCalls(url, options.memoryBaseline);
    const baseline = await child.memory(true);
    log(`  after ${options.memoryBaseline} requests: RSS ${mib(baseline.rss)}`);
    errors += await modernCalls(url, options.memoryRequests - options.memoryBaseline);
    const after = await child.memory(true);
    log(`  after ${options.memoryRequests} requests: RSS ${mib(after.rss)}`);
    return {
      baselineRequests: options.memoryBaseline,
      requests: options.memoryRequests,
      rssAfterBaseline: baseline.rss,
      rssAfterAll: after.rss,
      heapAfterBaseline: baseline.heapUsed,
      heapAfterAll: after.heapUsed,
      errors,
    };
  } finally {
    await child.stop();
  }
}

/** RSS of `options.sessions` idle legacy sessions, opened 50 at a time. */
async function measureSessions(
  options: BenchOptions,
  log: (line: string) => void,
): Promise<MemoryResult['sessions']> {
  const child = await ServerChild.start({ ...RONDO_HTTP, args: [...RONDO_HTTP.args] });
  try {
    const url = child.url('http');
    await openLegacySession(url);
    const idle = await child.memory(true);
    let opened = 1;
    const worker = async () => {
      while (opened < options.sessions) {
        opened++;
        await openLegacySession(url);
      }
    };
    await Promise.all(Array.from({ length: 50 }, worker));
    const full = await child.memory(true);
    log(`  ${options.sessions} idle legacy sessions: RSS ${mib(idle.rss)} -> ${mib(full.rss)}`);
    return {
      count: options.sessions,
      rssIdle: idle.rss,
      rssWithSessions: full.rss,
      heapIdle: idle.heapUsed,
      heapWithSessions: full.heapUsed,
    };
  } finally {
    await child.stop();
  }
}

/** Runs both memory checks. */
export async function runMemory(
  options: BenchOptions,
  log: (line: string) => void,
): Promise<MemoryResult> {
  log(`memory: RSS after ${options.memoryBaseline} vs ${options.memoryRequests} modern requests`);
  const growth = await measureGrowth(options, log);
  log(`memory: ${options.sessions} idle legacy sessions`);
  const sessions = await measureSessions(options, log);
  return { growth, sessions };
}

/** Bytes as MiB with one decimal. */
export function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
