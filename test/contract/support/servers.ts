import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { legacyEra } from '@rondo/adapter-2025';
import { modernEra } from '@rondo/adapter-2026';
import { createEndpoint, createServer, type Endpoint } from '@rondo/core';
import { createPrologProvider } from '@rondo/logtalk-bridge';
import { serveHttp } from '@rondo/transport-http';
import { serveWebSocket } from '@rondo/transport-ws';
import ts from 'typescript';
import { createContractEndpoint } from '../fixtures/contractServer.js';
import {
  HttpDriver,
  StdioDriver,
  WsDriver,
  type TransportDriver,
  type TransportName,
} from './transports.js';

/** The providers the contract suite runs against. */
export const PROVIDERS = ['typescript', 'prolog'] as const;
export type ProviderName = (typeof PROVIDERS)[number];

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const fixtures = fileURLToPath(new URL('../fixtures/', import.meta.url));
const PROLOG_FILE = path.join(fixtures, 'contract.pl');
const LOGTALK_HOST = path.join(repoRoot, 'apps/logtalk-host/dist/main.js');
const STATE_KEY = 'rondo-contract-tests-key-0123456789abcde';

/** A provider served over one transport: each `connect` is a new client connection. */
export interface ServedProvider {
  connect(): Promise<TransportDriver>;
  close(): Promise<void>;
}

/** Serves `provider` over `transport`; stdio starts a server process per connection. */
export async function serve(
  provider: ProviderName,
  transport: TransportName,
): Promise<ServedProvider> {
  if (transport === 'stdio') return serveOverStdio(provider);
  const endpoint = await endpointOf(provider);
  const handle =
    transport === 'http'
      ? await serveHttp(endpoint, { port: 0 })
      : await serveWebSocket(endpoint, { port: 0, keepAlive: false });
  const drivers: TransportDriver[] = [];
  return {
    async connect() {
      const driver =
        transport === 'http' ? new HttpDriver(handle.url) : await WsDriver.connect(handle.url);
      drivers.push(driver);
      return driver;
    },
    async close() {
      await Promise.all(drivers.map((driver) => driver.close()));
      await handle.close();
      await endpoint.close();
    },
  };
}

/** The provider composed with both eras in this process, as `serveHttp` and `serveWebSocket` take it. */
async function endpointOf(provider: ProviderName): Promise<Endpoint> {
  if (provider === 'typescript') return createContractEndpoint();
  const prolog = await createPrologProvider({
    files: [PROLOG_FILE],
    workers: 2,
    onLog: () => undefined,
  });
  const server = createServer({
    name: 'rondo-contract',
    version: '1.0.0',
    requestState: { key: STATE_KEY },
    log: () => undefined,
  }).provider(prolog);
  return createEndpoint(server, { modern: modernEra(), legacy: legacyEra() });
}

function serveOverStdio(provider: ProviderName): ServedProvider {
  const args =
    provider === 'typescript'
      ? [transpiledStdioMain()]
      : [builtHost(), '--workers', '2', '--name', 'rondo-contract', PROLOG_FILE];
  const env = { PATH: process.env.PATH ?? '', RONDO_STATE_KEY: STATE_KEY };
  const drivers: StdioDriver[] = [];
  return {
    async connect() {
      const driver = new StdioDriver(process.execPath, args, env);
      drivers.push(driver);
      return driver;
    },
    async close() {
      await Promise.all(drivers.map((driver) => driver.close()));
    },
  };
}

function builtHost(): string {
  if (!existsSync(LOGTALK_HOST))
    throw new Error(`${LOGTALK_HOST} is missing: run pnpm build first`);
  return LOGTALK_HOST;
}

let stdioMain: string | undefined;

/**
 * The TypeScript contract server's stdio program, as JavaScript node can run: the fixture files
 * are transpiled (types stripped, nothing checked; `pnpm typecheck` checks them) into a folder
 * under `node_modules/.cache`, where the workspace packages resolve as they do for the tests.
 */
function transpiledStdioMain(): string {
  if (stdioMain) return stdioMain;
  const sources = ['contractServer', 'stdioMain'].map((name) => ({
    name,
    source: readFileSync(path.join(fixtures, `${name}.ts`), 'utf8'),
  }));
  // Named by content, so parallel test files share one copy and an edit makes a new one.
  const hash = createHash('sha256');
  for (const { source } of sources) hash.update(source);
  const out = path.join(
    repoRoot,
    'node_modules/.cache/rondo-contract',
    hash.digest('hex').slice(0, 16),
  );
  mkdirSync(out, { recursive: true });
  writeAtomically(path.join(out, 'package.json'), '{ "type": "module" }\n');
  for (const { name, source } of sources) {
    const { outputText } = ts.transpileModule(source, {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    });
    writeAtomically(path.join(out, `${name}.js`), outputText);
  }
  stdioMain = path.join(out, 'stdioMain.js');
  return stdioMain;
}

/** Writes through a temporary file and a rename, so a reader never sees half a file. */
function writeAtomically(file: string, content: string): void {
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, content);
  renameSync(temporary, file);
}
