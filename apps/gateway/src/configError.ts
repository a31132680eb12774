/** A configuration file the gateway cannot use; the message names the file and the member. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}
