import { fileURLToPath } from 'node:url';
import { legacyEra } from '@rondo/adapter-2025';
import { modernEra } from '@rondo/adapter-2026';
import { createEndpoint, createServer } from '@rondo/core';
import { proxy, withPassThrough } from '@rondo/proxy';
import { serveStdio } from '@rondo/transport-stdio';
import { reportReady } from './control.js';

/**
 * Rondo's echo server behind a gateway: a Rondo server whose only provider proxies the Rondo
 * contender (`rondo.js --transport stdio`, a child of this process, so its CPU counts here too),
 * served on stdio. The tool keeps its name (empty namespace).
 *
 *   node gateway.js [--no-pass-through]
 */
const RONDO = fileURLToPath(new URL('./rondo.js', import.meta.url));

const server = createServer({
  name: 'rondo-bench-gateway',
  version: '1.0.0',
  log: (level, message) => level === 'error' && process.stderr.write(`${message}\n`),
}).provider(
  proxy(
    { command: process.execPath, args: [RONDO, '--transport', 'stdio'] },
    { namespace: '', maxConcurrent: 1024, maxQueued: 1024 },
  ),
);
// `--no-pass-through` measures the translating path alone (every call through the pipeline).
const endpoint = process.argv.includes('--no-pass-through')
  ? createEndpoint(server, {
      modern: modernEra({ alsoSupported: ['2025-11-25', '2025-06-18'] }),
      legacy: legacyEra(),
    })
  : withPassThrough(
      createEndpoint(server, {
        modern: modernEra({ alsoSupported: ['2025-11-25', '2025-06-18'] }),
        legacy: legacyEra(),
      }),
      server,
    );
await endpoint.ready();
serveStdio(endpoint);
reportReady({});
