import { existsSync } from 'node:fs';
import { extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PrologConfigurationError } from './errors.js';
import {
  findLogtalkHome,
  logtalkUserDirectory,
  privateLogtalkUser,
  realLogtalkUser,
} from './logtalkHome.js';

/** The directory of the Prolog shim shipped with this package. */
export const PROLOG_DIR = fileURLToPath(new URL('../prolog/', import.meta.url));

/** Which way the user's files are loaded. */
export type Flavour = 'plain' | 'logtalk';

/** The command line of a worker. */
export interface LaunchPlan {
  flavour: Flavour;
  files: string[];
  command: string;
  args: string[];
  /** The Logtalk distribution, for the Logtalk flavour. */
  logtalkHome?: string;
  /**
   * The environment of one worker (creating what it needs first): the caller's, with a fixed
   * UTF-8 locale, and for Logtalk the distribution and a private `LOGTALKUSER`.
   */
  environment(workerKey: string): NodeJS.ProcessEnv;
  /** Where the worker compiles the user's Logtalk files; null for plain Prolog. */
  scratch(workerKey: string): string | null;
}

const LOGTALK_EXTENSIONS = new Set(['.lgt', '.logtalk']);

/**
 * `file not found: <path as given> (resolved to <absolute path>)` for the first file that does
 * not exist (relative paths resolve against the working directory), or undefined.
 */
export function missingFileProblem(files: readonly string[]): string | undefined {
  const missing = files.find((file) => !existsSync(resolve(file)));
  if (missing === undefined) return undefined;
  return `file not found: ${missing} (resolved to ${resolve(missing)})`;
}

/**
 * The locale every worker runs in, whatever the client passed: Prolog reads source files in the
 * locale's encoding and converts case with its tables, so a client that starts servers without
 * `LANG` would otherwise get a provider that reads `grüß` as bytes and upper-cases it differently.
 */
export const WORKER_LOCALE = process.platform === 'darwin' ? 'en_US.UTF-8' : 'C.UTF-8';

/**
 * Chooses the flavour and builds the `swipl` command line: Logtalk when a `.lgt` file is given
 * (found through {@link findLogtalkHome}), plain SWI-Prolog modules otherwise.
 */
export function planLaunch(
  files: readonly string[],
  swipl: string,
  logtalkHomeOption: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): LaunchPlan {
  if (files.length === 0)
    throw new PrologConfigurationError('createPrologProvider needs at least one file');
  const absolute = files.map((file) => resolve(file));
  const bridge = join(PROLOG_DIR, 'rondo_bridge.pl');
  const common = ['-q', '-f', 'none', '-g', 'rondo_bridge:main', '-t', 'halt(3)'];
  const base = { ...env, LANG: WORKER_LOCALE, LC_ALL: WORKER_LOCALE };
  const logtalkFile = absolute.find((file) => LOGTALK_EXTENSIONS.has(extname(file)));
  if (!logtalkFile) {
    return {
      flavour: 'plain',
      files: absolute,
      command: swipl,
      args: [...common, bridge],
      environment: () => base,
      scratch: () => null,
    };
  }
  const home = findLogtalkHome(logtalkFile, logtalkHomeOption, env);
  const realUser = realLogtalkUser(env);
  return {
    flavour: 'logtalk',
    files: absolute,
    command: swipl,
    logtalkHome: home,
    args: [
      '-q',
      '-f',
      'none',
      '-s',
      join(home, 'integration', 'logtalk_swi.pl'),
      ...common.slice(3),
      bridge,
    ],
    environment: (key) => ({
      ...base,
      LOGTALKHOME: home,
      LOGTALKUSER: privateLogtalkUser(key, realUser),
    }),
    scratch: (key) => `${logtalkUserDirectory(key)}scratch/`,
  };
}

/** The one-line fix for a `swipl` that does not exist (the spawn failed with `ENOENT`). */
export function swiplNotFound(command: string): PrologConfigurationError {
  const where = command.includes('/')
    ? `${command} does not exist`
    : `"${command}" is not on the PATH (${process.env.PATH ?? ''})`;
  return new PrologConfigurationError(
    `SWI-Prolog not found: ${where}. Install it (Debian: apt-get install -y swi-prolog-nox) or give ` +
      'its absolute path with the swipl option (rondo-logtalk --swipl /usr/bin/swipl; ' +
      '`command -v swipl` prints it)',
  );
}
