import { AUTH_FLAGS, AUTH_FLAGS_HELP, readAuthFlags, type AuthFlagSettings } from '@rondo/auth';

/** The `--auth-*` flags the demo takes (`@rondo/auth`'s shared set), without their dashes. */
const NAMES = new Set(Object.keys(AUTH_FLAGS));

/** The flags' help, for the demo's usage text. */
export const DEMO_AUTH_HELP = AUTH_FLAGS_HELP;

/** Collects the demo's `--auth-*` flags while its command line is read. */
export class DemoAuthFlags {
  private readonly values: Record<string, string> = {};

  /** Takes `flag` when it is an `--auth-*` flag (its value from `value()`); false otherwise. */
  take(flag: string, value: () => string | undefined): boolean {
    const name = flag.slice(2);
    if (!flag.startsWith('--auth-') || !NAMES.has(name)) return false;
    const given = value();
    if (given === undefined) throw new Error(`${flag} needs a value`);
    this.values[name] = given;
    return true;
  }

  /**
   * The settings the flags and the `RONDO_AUTH_*` variables give, checked (an `Error` naming the
   * mistake); undefined when none is given. Refused with `--stdio`, which carries no token.
   */
  settings(env: NodeJS.ProcessEnv, stdio: boolean): AuthFlagSettings | undefined {
    const settings = readAuthFlags(this.values, env);
    if (settings !== undefined && stdio)
      throw new Error('--auth-* is for HTTP and WebSocket: --stdio carries no bearer token');
    return settings;
  }
}
