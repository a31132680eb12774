import { readFileSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { parse as parseDotenv } from 'dotenv';
import { ConfigError } from './configError.js';

/** What placeholders expand to: the gateway's environment and the configuration's folder. */
export interface PlaceholderScope {
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The folder relative paths are read against (the configuration file's). */
  readonly baseDir: string;
}

/** The members of an entry whose strings may hold placeholders. */
const EXPANDED = ['command', 'args', 'env', 'url', 'headers', 'cwd', 'envFile'] as const;

const PLACEHOLDER = /\$\{([^}]*)\}/g;
const VARIABLE = /^(?:env:)?([A-Za-z_][A-Za-z0-9_]*)(?::-(.*))?$/s;

/**
 * Expands the placeholders of one string, as the desktop hosts do: `${env:NAME}` and `${NAME}`
 * (the gateway's environment; `${NAME:-default}` when unset), `${workspaceFolder}` (the folder
 * holding `.vscode/`, or else the configuration's folder) and `${userHome}`. A variable that is
 * not set, and VS Code's `${input:...}` (a prompt the gateway cannot show), are errors naming it.
 */
export function expandString(value: string, scope: PlaceholderScope, where: string): string {
  return value.replace(PLACEHOLDER, (whole, inner: string) => {
    if (inner === 'workspaceFolder') return workspaceFolder(scope.baseDir);
    if (inner === 'userHome') return scope.env.HOME ?? scope.env.USERPROFILE ?? whole;
    if (inner.startsWith('input:')) {
      throw new ConfigError(
        `${where}: ${whole} asks the user, which the gateway cannot: set an environment variable and write \${env:NAME}`,
      );
    }
    const variable = VARIABLE.exec(inner);
    if (variable === null)
      throw new ConfigError(`${where}: ${whole} is not a placeholder the gateway knows`);
    const [, name, fallback] = variable;
    const set = scope.env[name!];
    if (set !== undefined && set !== '') return set;
    if (fallback !== undefined) return fallback;
    throw new ConfigError(`${where}: ${whole}: the environment variable ${name} is not set`);
  });
}

/**
 * An entry with the placeholders of its `command`, `args`, `env`, `url`, `headers`, `cwd` and
 * `envFile` expanded (see {@link expandString}); the other members as they are.
 */
export function expandEntry(
  raw: Readonly<Record<string, unknown>>,
  scope: PlaceholderScope,
  where: string,
): Record<string, unknown> {
  const entry: Record<string, unknown> = { ...raw };
  for (const key of EXPANDED) {
    const value = entry[key];
    const at = `${where}.${key}`;
    if (typeof value === 'string') entry[key] = expandString(value, scope, at);
    else if (Array.isArray(value))
      entry[key] = (value as unknown[]).map((item, index) =>
        typeof item === 'string' ? expandString(item, scope, `${at}[${index}]`) : item,
      );
    else if (typeof value === 'object' && value !== null)
      entry[key] = Object.fromEntries(
        Object.entries(value).map(([name, item]) => [
          name,
          typeof item === 'string' ? expandString(item, scope, `${at}.${name}`) : item,
        ]),
      );
  }
  return entry;
}

/**
 * The variables of an entry's `envFile` (dotenv format, read against the configuration's folder),
 * under its own `env`, which wins: VS Code's `envFile` member.
 */
export function withEnvFile(
  entry: Record<string, unknown>,
  baseDir: string,
  where: string,
): Record<string, unknown> {
  const file = entry.envFile;
  if (file === undefined) return entry;
  if (typeof file !== 'string' || file === '')
    throw new ConfigError(`${where}.envFile: a file path, got ${JSON.stringify(file)}`);
  const path = resolve(baseDir, file);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (failure) {
    throw new ConfigError(
      `${where}.envFile: cannot read ${path}: ${(failure as NodeJS.ErrnoException).code ?? 'error'}`,
    );
  }
  const { envFile: _file, ...rest } = entry;
  const own = typeof entry.env === 'object' && entry.env !== null ? entry.env : {};
  return { ...rest, env: { ...parseDotenv(text), ...own } };
}

/** VS Code's workspace folder: the parent of `.vscode/` for `.vscode/mcp.json`, else the folder. */
function workspaceFolder(baseDir: string): string {
  return basename(baseDir) === '.vscode' ? dirname(baseDir) : baseDir;
}
