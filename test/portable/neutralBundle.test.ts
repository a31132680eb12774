import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { bundleNeutral } from './neutralBundle.js';

/** What every runtime that speaks fetch offers; `process`, `Buffer` and `require` are missing. */
function webGlobals(): Record<string, unknown> {
  const names = [
    'TextEncoder',
    'TextDecoder',
    'URL',
    'URLSearchParams',
    'AbortController',
    'AbortSignal',
    'Headers',
    'Request',
    'Response',
    'ReadableStream',
    'crypto',
    'atob',
    'btoa',
    'console',
    'setTimeout',
    'clearTimeout',
    'setInterval',
    'clearInterval',
    'queueMicrotask',
    'structuredClone',
    'Event',
    'EventTarget',
    'DOMException',
    'performance',
  ];
  return Object.fromEntries(
    names.map((name) => [name, (globalThis as Record<string, unknown>)[name]]),
  );
}

describe('the portable packages', () => {
  it('bundle (with the fetch transport) for a neutral platform without one node: import, and load without process or Buffer', async () => {
    const bundle = await bundleNeutral([
      '@rondo/protocol',
      '@rondo/core',
      '@rondo/core/internal',
      '@rondo/adapter-2025',
      '@rondo/adapter-2026',
      '@rondo/transport-http/fetch',
      '@rondo/skills',
      '@rondo/apps',
      '@rondo/tasks',
      '@rondo/events',
    ]);
    expect(bundle.nodeImports).toEqual([]);
    const sandbox = webGlobals();
    runInNewContext(`${bundle.code}\nglobalThis.loaded = portable;`, sandbox);
    const loaded = sandbox.loaded as Record<string, Record<string, unknown>>;
    expect(typeof loaded.m1?.createServer).toBe('function');
    expect(typeof loaded.m4?.modernEra).toBe('function');
    expect(typeof loaded.m5?.createFetchHandler).toBe('function');
    expect(typeof loaded.m6?.skills).toBe('function');
    expect(typeof loaded.m7?.uiResource).toBe('function');
    expect(typeof loaded.m8?.tasks).toBe('function');
    // Events without webhook delivery: its network (`#callbackNetwork`) is Node's alone.
    expect(typeof loaded.m9?.events).toBe('function');
  });
});

describe('the neutral bundle check', () => {
  it('sees the node: imports of a package that has them (the node HTTP server)', async () => {
    const bundle = await bundleNeutral(['@rondo/core/node']);
    expect(bundle.nodeImports).toContain('packages/core/dist/nodeListener.js -> node:http');
  });
});
