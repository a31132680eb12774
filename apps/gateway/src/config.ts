import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { isSecureAuthorizationUrl } from '@rondo/client';
import { z } from 'zod';
import { ConfigError } from './configError.js';
import { parseConfigText } from './configText.js';
import { entryTransport, refuseUnknownKeys } from './entryKeys.js';
import { expandEntry, withEnvFile, type PlaceholderScope } from './placeholders.js';
import { didYouMean } from './suggest.js';
import { openApiMembers, readOpenApiFields, type OpenApiEntryFields } from './openApiEntry.js';

export { ConfigError };

const names = z.array(z.string().min(1));
const stringMap = z.record(z.string(), z.string());

/** The Rondo keys every entry may carry besides how to reach it. */
const common = {
  /** Prefix of the entry's tool and prompt names; default the entry's key; `""` for none. */
  namespace: z
    .string()
    .regex(/^[A-Za-z0-9_.-]*$/, 'letters, digits, "_", "-" and "." only')
    .optional(),
  include: names.optional(),
  exclude: names.optional(),
  includeTags: names.optional(),
  excludeTags: names.optional(),
  rename: stringMap.optional(),
  timeoutMs: z.number().int().min(0).optional(),
  maxConcurrent: z.number().int().min(1).max(1024).optional(),
  /** Bytes of each of the upstream's lists kept (the rest left out with a warning). */
  maxCatalogBytes: z.number().int().min(1024).optional(),
  /** Whose upstream session a call runs in (see `Isolation` of @rondo/proxy). */
  isolation: z.enum(['shared', 'principal', 'session']).optional(),
  maxIsolatedSessions: z.number().int().min(1).max(4096).optional(),
  /** How long a call waiting for its caller's answers is kept (ms). */
  suspendedTtlMs: z.number().int().min(1000).max(86_400_000).optional(),
  maxSuspendedPerClient: z.number().int().min(1).max(100_000).optional(),
  disabled: z.boolean().optional(),
  era: z.enum(['auto', 'mirror', '2026-07-28', '2025-11-25', '2025-06-18']).optional(),
  /** How long the legacy mirror connection is kept with no call on it (ms). */
  mirrorIdleMs: z.number().int().min(1000).max(86_400_000).optional(),
};

// Unknown keys are refused before these schemas run (`refuseUnknownKeys`), but for the desktop
// hosts' own (`type`, `alwaysAllow`...): the same file also configures them.
const stdioEntry = z.looseObject({
  command: z.string().min(1),
  args: z.array(z.string()).optional(),
  env: stringMap.optional(),
  cwd: z.string().optional(),
  ...common,
});
/**
 * The client credentials grant for a remote upstream that wants OAuth: the gateway logs in as
 * itself. The secret is given as is or, better, named by the environment variable holding it.
 */
const oauthClient = z
  .strictObject({
    clientId: z.string().min(1),
    /** The authorization server the client is registered with: the only one it logs in at. */
    issuer: z.string().refine(isSecureAuthorizationUrl, {
      message: 'must be an https URL (http only on a loopback host)',
    }),
    clientSecret: z.string().min(1).optional(),
    clientSecretEnv: z.string().min(1).optional(),
    scope: z.string().min(1).optional(),
    /**
     * True: the gateway acts for each caller (OAuth 2.0 Token Exchange, RFC 8693): it exchanges
     * the caller's verified token at `issuer` for one of the upstream's, never using its own.
     */
    tokenExchange: z.boolean().optional(),
  })
  .refine((oauth) => (oauth.clientSecret === undefined) !== (oauth.clientSecretEnv === undefined), {
    message: 'give one of clientSecret and clientSecretEnv',
  });
const remoteEntry = z.looseObject({
  url: z.url({ protocol: /^(https?|wss?)$/ }),
  headers: stringMap.optional(),
  oauth: oauthClient.optional(),
  ...common,
});
const prologEntry = z.looseObject({
  prolog: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]),
  object: z.string().optional(),
  workers: z.number().int().min(1).max(64).optional(),
  ...common,
});

const openApiEntry = z.looseObject({ ...openApiMembers, ...common });

/** The catalog keys an entry may carry (read by `parseGatewayCatalog`). */
const CATALOG_KEYS = ['tools', 'toolSearch'];

const serverMap = z.record(z.string().min(1), z.unknown());
/** The members of a file holding the entries: Claude Desktop's and Cursor's, and VS Code's. */
const ENTRY_MEMBERS = ['mcpServers', 'servers'] as const;

/** A remote entry's `oauth` member as read: the secret taken from its variable if named so. */
export interface GatewayOAuth {
  readonly clientId: string;
  readonly issuer: string;
  readonly clientSecret: string;
  readonly scope?: string;
  /** Act for each caller by token exchange instead of logging in as the gateway. */
  readonly tokenExchange?: boolean;
}

/** One upstream of the gateway, read from its `mcpServers` entry. */
export type GatewayEntry = { readonly key: string; readonly namespace: string } & (
  | ({ readonly kind: 'stdio' } & z.infer<typeof stdioEntry>)
  | ({
      readonly kind: 'remote';
      readonly oauth?: GatewayOAuth;
      /** `sse`: the 2024-11-05 HTTP+SSE transport (`"type": "sse"`); else by the URL's scheme. */
      readonly transport?: 'sse';
    } & z.infer<typeof remoteEntry>)
  | ({ readonly kind: 'prolog'; readonly files: string[] } & z.infer<typeof prologEntry>)
  | ({ readonly kind: 'openapi' } & z.infer<typeof openApiEntry> & OpenApiEntryFields)
);

function problem(error: z.ZodError): string {
  const first = error.issues[0];
  if (!first) return 'invalid';
  const where = first.path.length > 0 ? `${first.path.join('.')}: ` : '';
  return `${where}${first.message}`;
}

/**
 * Reads the entries of a configuration text: the `mcpServers` member (Claude Desktop, Cursor) or
 * the `servers` one (VS Code), in JSON with comments and trailing commas, with Rondo's keys.
 * Placeholders (`${env:NAME}`, `${NAME}`, `${workspaceFolder}`) are expanded from `env` (default
 * the process's) in `command`, `args`, `env`, `url`, `headers` and `cwd`; an `envFile` is read
 * into `env`; relative `cwd`, `envFile` and `prolog` paths are resolved against `baseDir`, which
 * is also the working folder of a stdio entry without `cwd` (so its relative `args` are read from
 * there too); disabled entries are left out. Throws a {@link ConfigError} naming the entry and the member at
 * fault: an unknown key names the one meant, a syntax error its line and column.
 */
export function parseConfig(
  text: string,
  source: string,
  baseDir: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): GatewayEntry[] {
  const json = parseConfigText(text, source);
  const { member, servers } = entriesOf(json, source);
  const scope = { env, baseDir };
  const entries: GatewayEntry[] = [];
  for (const [key, raw] of Object.entries(servers)) {
    const entry = readEntry(key, raw, `${source}: ${member}.${key}`, scope);
    if (!entry.disabled) entries.push(entry);
  }
  if (entries.length === 0) throw new ConfigError(`${source}: ${member} has no enabled entry`);
  checkNamesApart(entries, source, member);
  return entries;
}

/**
 * Refuses entries whose names would collide whatever their upstreams list: two entries with one
 * namespace (not `""`: such entries are told apart by what they list, see `CatalogClaims`), or
 * one shown name given by two entries' `rename`.
 */
function checkNamesApart(entries: readonly GatewayEntry[], source: string, member: string): void {
  const namespaces = new Map<string, string>();
  const renamed = new Map<string, string>();
  for (const entry of entries) {
    const other = namespaces.get(entry.namespace);
    if (entry.namespace !== '' && other !== undefined) {
      throw new ConfigError(
        `${source}: ${member}.${other} and ${member}.${entry.key} have the same namespace "${entry.namespace}"; give each its own`,
      );
    }
    namespaces.set(entry.namespace, entry.key);
    for (const shown of new Set(Object.values(entry.rename ?? {}))) {
      const holder = renamed.get(shown);
      if (holder !== undefined && holder !== entry.key) {
        throw new ConfigError(
          `${source}: ${member}.${holder} and ${member}.${entry.key} both rename something to "${shown}"`,
        );
      }
      renamed.set(shown, entry.key);
    }
  }
}

/** The member holding the entries, and its value. */
function entriesOf(
  json: unknown,
  source: string,
): { member: string; servers: Record<string, unknown> } {
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    throw new ConfigError(
      `${source}: the file holds ${Array.isArray(json) ? 'an array' : typeof json}, not an object with mcpServers`,
    );
  const file = json as Record<string, unknown>;
  const present = ENTRY_MEMBERS.filter((member) => member in file);
  if (present.length === 0) {
    const hint =
      Object.keys(file)
        .map((key) => didYouMean(key, ENTRY_MEMBERS))
        .find(Boolean) ?? '';
    throw new ConfigError(`${source}: no mcpServers (or VS Code's servers) member${hint}`);
  }
  if (present.length > 1) throw new ConfigError(`${source}: both mcpServers and servers: keep one`);
  const member = present[0]!;
  const servers = serverMap.safeParse(file[member]);
  if (!servers.success) throw new ConfigError(`${source}: ${member}: ${problem(servers.error)}`);
  return { member, servers: servers.data };
}

function readEntry(
  key: string,
  raw: unknown,
  where: string,
  scope: PlaceholderScope,
): GatewayEntry {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw new ConfigError(`${where}: an object with command, url, prolog or openapi`);
  const given = raw as Record<string, unknown>;
  const transport = 'openapi' in given ? 'openapi' : entryTransport(given, where);
  const schema =
    transport === 'openapi'
      ? openApiEntry
      : transport === 'prolog'
        ? prologEntry
        : transport === 'stdio'
          ? stdioEntry
          : remoteEntry;
  const ownKeys = transport === 'stdio' ? ['envFile', ...CATALOG_KEYS] : CATALOG_KEYS;
  refuseUnknownKeys(given, [...Object.keys(schema.shape), ...ownKeys], where);
  const shape = withEnvFile(expandEntry(given, scope, where), scope.baseDir, where);
  const baseDir = scope.baseDir;
  const parsed = schema.safeParse(shape);
  if (!parsed.success) {
    const hint =
      'command' in shape || 'url' in shape || 'prolog' in shape || 'openapi' in shape
        ? ''
        : ' (an entry needs command, url, prolog or openapi)';
    throw new ConfigError(`${where}: ${problem(parsed.error)}${hint}`);
  }
  const data = parsed.data as Record<string, unknown>;
  const namespace = (data.namespace as string | undefined) ?? key.replace(/[^A-Za-z0-9_.-]/g, '_');
  if ('openapi' in data) {
    const fields = readOpenApiFields(data as z.infer<typeof openApiEntry>, where, baseDir);
    return {
      ...(data as z.infer<typeof openApiEntry>),
      ...fields,
      key,
      namespace,
      kind: 'openapi',
    };
  }
  if ('prolog' in data) {
    const list = Array.isArray(data.prolog) ? (data.prolog as string[]) : [data.prolog as string];
    return {
      ...(data as z.infer<typeof prologEntry>),
      key,
      namespace,
      kind: 'prolog',
      files: list.map((f) => resolve(baseDir, f)),
    };
  }
  if ('url' in data) {
    const { oauth, ...remote } = data as z.infer<typeof remoteEntry>;
    const login = oauth && readOAuth(oauth, remote, where);
    const sse = transport === 'sse' ? { transport: 'sse' as const } : {};
    return {
      ...remote,
      ...(login ? { oauth: login } : {}),
      ...sse,
      key,
      namespace,
      kind: 'remote',
    };
  }
  const stdio = data as z.infer<typeof stdioEntry>;
  return {
    ...stdio,
    key,
    namespace,
    kind: 'stdio',
    // One rule for relative paths: from the configuration's folder. The process runs there unless
    // `cwd` says otherwise, so relative `args` (and a relative `command`) are read from there too.
    cwd: resolve(baseDir, stdio.cwd ?? '.'),
  };
}

/** Reads and parses a configuration file (see {@link parseConfig}). */
export function readConfig(path: string): GatewayEntry[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (failure) {
    throw new ConfigError(
      `${path}: cannot read: ${(failure as NodeJS.ErrnoException).code ?? (failure as Error).message}`,
    );
  }
  return parseConfig(text, path, dirname(resolve(path)));
}

/**
 * An `oauth` member with its secret read (from the environment when it names a variable); one the
 * gateway could not log in with, on a WebSocket URL or naming an unset variable, is refused, and
 * so is a `tokenExchange` one whose entry shares sessions between callers (`isolation`).
 */
function readOAuth(
  oauth: z.infer<typeof oauthClient>,
  { url, isolation }: { readonly url: string; readonly isolation?: string | undefined },
  where: string,
): GatewayOAuth {
  if (/^wss?:/.test(url)) {
    throw new ConfigError(`${where}: oauth: needs an http(s) url (WebSocket sends no tokens)`);
  }
  if (oauth.tokenExchange && isolation !== undefined && isolation !== 'principal') {
    const why =
      'an entry with oauth.tokenExchange runs each caller in its own session ("principal")';
    throw new ConfigError(`${where}: isolation: ${why}`);
  }
  const variable = oauth.clientSecretEnv;
  const clientSecret = variable === undefined ? oauth.clientSecret : process.env[variable];
  if (!clientSecret) {
    throw new ConfigError(`${where}: oauth.clientSecretEnv: ${variable ?? ''} is not set`);
  }
  return {
    clientId: oauth.clientId,
    issuer: oauth.issuer,
    clientSecret,
    ...(oauth.scope ? { scope: oauth.scope } : {}),
    ...(oauth.tokenExchange ? { tokenExchange: true } : {}),
  };
}
