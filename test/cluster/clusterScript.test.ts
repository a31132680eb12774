import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import { repoRoot } from '../demo/demoProcess.js';

// `pnpm cluster` (tooling/scripts/cluster.mjs) as a user runs it: redis-server, three demo
// replicas and nginx; a legacy session through nginx spreads over the replicas and outlives the
// one that created it; Ctrl-C stops every process it started.

interface Cluster {
  child: ChildProcess;
  url: string;
  replicas: { name: string; pid: number; url: string }[];
  pids: number[];
}

async function startCluster(): Promise<Cluster> {
  const child = spawn(
    process.execPath,
    [join(repoRoot, 'tooling/scripts/cluster.mjs'), '--port', '0', '--no-prolog'],
    { cwd: repoRoot, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let output = '';
  child.stderr.setEncoding('utf8');
  await new Promise<void>((resolve, reject) => {
    child.stderr.on('data', (chunk: string) => {
      output += chunk;
      if (output.includes('Ctrl-C stops all.')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`pnpm cluster exited (${code}):\n${output}`)));
  });
  const url = /Rondo cluster on (http:\S+)/.exec(output)![1]!;
  const replicas = [...output.matchAll(/(replica\d)\s+pid (\d+)\s+(http:\S+)/g)].map((match) => ({
    name: match[1]!,
    pid: Number(match[2]),
    url: match[3]!,
  }));
  const pids = [...output.matchAll(/pid (\d+)/g)].map((match) => Number(match[1]));
  return { child, url, replicas, pids };
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** The methods each replica's /traffic page says it served. */
async function servedBy(cluster: Cluster): Promise<Map<string, string[]>> {
  const served = new Map<string, string[]>();
  for (const replica of cluster.replicas) {
    if (!alive(replica.pid)) continue;
    const page = (await (await fetch(`${replica.url}/traffic`)).json()) as {
      records: { method: string }[];
    };
    served.set(
      replica.name,
      page.records.map((record) => record.method),
    );
  }
  return served;
}

describe('pnpm cluster', { timeout: scaled(60_000) }, () => {
  it('serves a legacy session over three replicas, survives one killed, stops all on Ctrl-C', async () => {
    const cluster = await startCluster();
    try {
      expect(cluster.replicas).toHaveLength(3);
      const client = new Client({ name: 'cluster-test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${cluster.url}/mcp`)));
      for (let call = 0; call < 6; call += 1) {
        expect((await client.listTools()).tools.length).toBeGreaterThan(0);
      }
      const served = await servedBy(cluster);
      const listing = [...served].filter(([, methods]) => methods.includes('tools/list'));
      expect(listing.length).toBeGreaterThanOrEqual(2);

      const creator = [...served].find(([, methods]) => methods.includes('initialize'))![0];
      const killed = cluster.replicas.find((replica) => replica.name === creator)!.pid;
      process.kill(killed, 'SIGKILL');
      // A request nginx writes to the replica while it is dying (on a pooled connection it has not
      // yet seen close) is a POST that reached a replica, so it gets 502 and is not replayed
      // (deploy/nginx/rondo.conf). Once the process is gone, nginx skips it.
      while (alive(killed)) await new Promise((resolve) => setTimeout(resolve, 20));
      await new Promise((resolve) => setTimeout(resolve, 100));
      for (let call = 0; call < 3; call += 1) {
        expect((await client.listTools()).tools.length).toBeGreaterThan(0);
      }
      await client.close();

      cluster.child.kill('SIGINT');
      const [code] = (await once(cluster.child, 'exit')) as [number | null];
      expect(code).toBe(0);
      expect(cluster.pids.filter(alive)).toEqual([]);
    } finally {
      if (cluster.child.exitCode === null) cluster.child.kill('SIGKILL');
      for (const pid of cluster.pids.filter(alive)) process.kill(pid, 'SIGKILL');
    }
  });
});
