/**
 * The variables a server process needs to run as the user and find its tools, and nothing the
 * parent holds for itself (keys, tokens, other servers' secrets): what desktop hosts and the
 * official SDK hand a stdio server.
 */
const INHERITED =
  process.platform === 'win32'
    ? [
        'APPDATA',
        'HOMEDRIVE',
        'HOMEPATH',
        'LOCALAPPDATA',
        'PATH',
        'PATHEXT',
        'PROCESSOR_ARCHITECTURE',
        'SYSTEMDRIVE',
        'SYSTEMROOT',
        'TEMP',
        'USERNAME',
        'USERPROFILE',
        'PROGRAMFILES',
      ]
    : ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER'];

/**
 * The allowlisted part of this process's environment (HOME, LOGNAME, PATH, SHELL, TERM, USER; on
 * Windows APPDATA, PATH, SYSTEMROOT, TEMP, USERPROFILE and the like). A value that looks like an
 * exported shell function (`() {...`) is left out, as it is code, not a setting.
 */
export function defaultEnvironment(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of INHERITED) {
    const value = process.env[name];
    if (value !== undefined && !value.startsWith('()')) env[name] = value;
  }
  return env;
}

/**
 * A child's environment: this process's whole environment (`inherit`) or only its
 * {@link defaultEnvironment}, then `extra` on top (a value of `undefined` removes a variable).
 */
export function childEnvironment(
  inherit: boolean,
  extra: Readonly<Record<string, string | undefined>> | undefined,
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = inherit ? { ...process.env } : defaultEnvironment();
  for (const [name, value] of Object.entries(extra ?? {})) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return env;
}
