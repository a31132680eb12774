import { ConfigError } from './configError.js';
import { didYouMean } from './suggest.js';

/**
 * Keys the desktop hosts write into the same entries (Claude Desktop, Cursor, VS Code, Cline,
 * Windsurf, Claude Code): the gateway accepts and ignores them, so one file serves both.
 */
export const HOST_KEYS: readonly string[] = [
  'type',
  'transportType',
  'alwaysAllow',
  'autoApprove',
  'timeout',
  'description',
  'dev',
  'gallery',
  'version',
  'icon',
];

/** How an entry reaches its upstream, from its `type` (or Cline's `transportType`) and members. */
export type EntryTransport = 'stdio' | 'http' | 'sse' | 'prolog';

const TYPES: Readonly<Record<string, EntryTransport>> = {
  stdio: 'stdio',
  http: 'http',
  'streamable-http': 'http',
  streamableHttp: 'http',
  sse: 'sse',
};

/**
 * The transport an entry asks for: its `type` (`stdio`, `http`, `sse`; Cline's `transportType`
 * and `streamableHttp` too), else what its members say (`prolog`, `url`, `command`). A type
 * that does not match the members (`"type": "sse"` without a `url`) is an error naming both.
 */
export function entryTransport(
  shape: Readonly<Record<string, unknown>>,
  where: string,
): EntryTransport {
  if ('prolog' in shape) return 'prolog';
  const key = 'type' in shape ? 'type' : 'transportType' in shape ? 'transportType' : undefined;
  const declared = key === undefined ? undefined : shape[key];
  if (declared === undefined) return 'url' in shape ? 'http' : 'stdio';
  const transport = typeof declared === 'string' ? TYPES[declared] : undefined;
  if (transport === undefined) {
    const hint = typeof declared === 'string' ? didYouMean(declared, Object.keys(TYPES)) : '';
    throw new ConfigError(
      `${where}.${key}: ${JSON.stringify(declared)} is not a transport (stdio, http or sse)${hint}`,
    );
  }
  const needs = transport === 'stdio' ? 'command' : 'url';
  if (!(needs in shape)) {
    throw new ConfigError(`${where}: "${key}": ${JSON.stringify(declared)} needs "${needs}"`);
  }
  return transport;
}

/**
 * Refuses a key no entry of this kind has, naming the key meant when one is close
 * (`mcpServers.files: unknown key "exlude" (did you mean "exclude"?)`): a misspelled filter would
 * otherwise serve the tools meant to be hidden.
 */
export function refuseUnknownKeys(
  shape: Readonly<Record<string, unknown>>,
  known: readonly string[],
  where: string,
): void {
  const allowed = new Set([...known, ...HOST_KEYS]);
  for (const key of Object.keys(shape)) {
    if (allowed.has(key)) continue;
    throw new ConfigError(`${where}: unknown key "${key}"${didYouMean(key, known)}`);
  }
}
