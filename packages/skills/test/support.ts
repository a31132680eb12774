import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Client, httpTransport } from '@rondo/client';
import { serve, type RondoServer } from '@rondo/server';

/** A server served over real HTTP on 127.0.0.1 and a client of the given era; `close` ends both. */
export async function served(
  server: RondoServer,
  era: 'legacy' | 'modern',
): Promise<{ client: Client; url: string; close: () => Promise<void> }> {
  const running = await serve(server, { transport: 'http', port: 0, quiet: true });
  const client = new Client({
    transport: httpTransport({ url: running.url }),
    era: era === 'modern' ? '2026-07-28' : '2025-11-25',
  });
  await client.connect();
  return {
    client,
    url: running.url,
    close: async () => {
      await client.close();
      await running.close();
    },
  };
}

/** A temporary directory with the given files (path → content; `->target` makes a symlink). */
export function tempTree(files: Record<string, string>): { root: string; remove: () => void } {
  const root = mkdtempSync(join(tmpdir(), 'rondo-skills-'));
  for (const [path, content] of Object.entries(files)) {
    const target = join(root, path);
    mkdirSync(dirname(target), { recursive: true });
    if (content.startsWith('->')) symlinkSync(content.slice(2), target);
    else writeFileSync(target, content);
  }
  return { root, remove: () => rmSync(root, { recursive: true, force: true }) };
}
