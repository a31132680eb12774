import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PrologConfigurationError } from './errors.js';

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
  env: NodeJS.ProcessEnv;
}

const LOGTALK_EXTENSIONS = new Set(['.lgt', '.logtalk']);

/**
 * Chooses the flavour and builds the `swipl` command line: Logtalk when a `.lgt` file is given
 * (which needs `LOGTALKHOME`), plain SWI-Prolog modules otherwise.
 */
export function planLaunch(
  files: readonly string[],
  swipl: string,
  logtalkHome: string | undefined,
): LaunchPlan {
  if (files.length === 0)
    throw new PrologConfigurationError('createPrologProvider needs at least one file');
  const absolute = files.map((file) => resolve(file));
  const wantsLogtalk = absolute.some((file) => LOGTALK_EXTENSIONS.has(extname(file)));
  const bridge = join(PROLOG_DIR, 'rondo_bridge.pl');
  const common = ['-q', '-f', 'none', '-g', 'rondo_bridge:main', '-t', 'halt(3)'];
  if (!wantsLogtalk) {
    return {
      flavour: 'plain',
      files: absolute,
      command: swipl,
      args: [...common, bridge],
      env: process.env,
    };
  }
  if (!logtalkHome) {
    throw new PrologConfigurationError(
      `${absolute.find((f) => LOGTALK_EXTENSIONS.has(extname(f)))} is a Logtalk file, but LOGTALKHOME is not set`,
    );
  }
  const integration = join(logtalkHome, 'integration', 'logtalk_swi.pl');
  if (!existsSync(integration))
    throw new PrologConfigurationError(`LOGTALKHOME has no ${integration}`);
  const env = {
    ...process.env,
    LOGTALKHOME: logtalkHome,
    LOGTALKUSER: process.env.LOGTALKUSER ?? logtalkHome,
  };
  return {
    flavour: 'logtalk',
    files: absolute,
    command: swipl,
    args: ['-q', '-f', 'none', '-s', integration, ...common.slice(3), bridge],
    env,
  };
}

/** A private scratch directory per worker: Logtalk compiles into it, and workers must not race. */
export function scratchDirectory(workerKey: string): string {
  return `${join(tmpdir(), `rondo-logtalk-${process.pid}-${workerKey}`)}/`;
}
