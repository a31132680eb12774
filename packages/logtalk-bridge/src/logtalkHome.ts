import { existsSync, mkdirSync, readdirSync, symlinkSync, statSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { PrologConfigurationError } from './errors.js';

/**
 * Where Logtalk's installers put a distribution, tried in this order when neither the
 * `logtalkHome` option nor `LOGTALKHOME` names one (a desktop MCP client starts servers with a
 * minimal environment, often without either).
 */
export const WELL_KNOWN_LOGTALK_HOMES: readonly string[] = [
  '/usr/local/share/logtalk',
  '/usr/share/logtalk',
  '/opt/local/share/logtalk',
  '/opt/homebrew/opt/logtalk/share/logtalk',
  '/usr/local/opt/logtalk/share/logtalk',
  '/opt/logtalk',
  'C:\\Program Files\\Logtalk',
  'C:\\Program Files (x86)\\Logtalk',
];

/** A Logtalk distribution usable from SWI-Prolog: it has the SWI integration script. */
export function isLogtalkHome(dir: string): boolean {
  return existsSync(join(dir, 'integration', 'logtalk_swi.pl'));
}

/**
 * The Logtalk distribution to load `.lgt` files with: the option, else `LOGTALKHOME`, else the
 * first well-known install location that holds one. A named one that is not a distribution, or
 * none found, is a `PrologConfigurationError` that says how to fix an MCP client's config.
 */
export function findLogtalkHome(
  file: string,
  option: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
  candidates: readonly string[] = WELL_KNOWN_LOGTALK_HOMES,
): string {
  const named = option ?? env.LOGTALKHOME;
  if (named) {
    if (isLogtalkHome(named)) return named;
    const source = option ? 'the logtalkHome option' : 'LOGTALKHOME';
    throw new PrologConfigurationError(
      `${file} is a Logtalk file, but ${source} (${named}) is not a Logtalk 3 distribution: it has no integration/logtalk_swi.pl. ${HOW_TO_FIX}`,
    );
  }
  const found = candidates.find(isLogtalkHome);
  if (found) return found;
  throw new PrologConfigurationError(
    `${file} is a Logtalk file, but no Logtalk was found: LOGTALKHOME is not set and none of ${candidates.join(', ')} holds a Logtalk 3 distribution. ${HOW_TO_FIX}`,
  );
}

const HOW_TO_FIX =
  'Install Logtalk (https://logtalk.org) and set LOGTALKHOME to it: an MCP client starts servers with its own environment, so put it in the server entry\'s "env" of the client config (e.g. "env": {"LOGTALKHOME": "/usr/local/share/logtalk"}), or pass --logtalk-home DIR to rondo-logtalk.';

/**
 * The user's Logtalk directory (settings file, own libraries): `LOGTALKUSER`, else `~/logtalk`
 * as Logtalk's own scripts default it; undefined when there is none.
 */
export function realLogtalkUser(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const candidate = env.LOGTALKUSER || join(homedir(), 'logtalk');
  return isDirectory(candidate) ? candidate : undefined;
}

/** The private `LOGTALKUSER` of one worker (see {@link privateLogtalkUser}), with a final `/`. */
export function logtalkUserDirectory(workerKey: string): string {
  return `${join(tmpdir(), `rondo-logtalk-${process.pid}-${workerKey}`)}/`;
}

/**
 * A private `LOGTALKUSER` for one worker: Logtalk compiles its built-in entities (and the bridge
 * the user's files) into `$LOGTALKUSER/scratch/` at start-up, so workers sharing one directory
 * race and read each other's half-written files. Each worker gets a fresh directory whose
 * entries link to the user's real ones (settings, libraries) except `scratch/`, its own. Nothing
 * is ever written into the real directory; removing this one removes only the links.
 */
export function privateLogtalkUser(workerKey: string, real: string | undefined): string {
  const dir = logtalkUserDirectory(workerKey);
  mkdirSync(`${dir}scratch`, { recursive: true });
  if (real)
    for (const entry of readdirSync(real))
      if (entry !== 'scratch' && !existsSync(`${dir}${entry}`))
        symlinkSync(join(real, entry), `${dir}${entry}`);
  return dir;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
