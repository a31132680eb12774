import { ConfigurationError } from '@rondo/core';

/**
 * A UI resource or an App tool declared wrongly (a URI outside `ui://`, a CSP origin that is not
 * one, an unknown permission): thrown where it is declared, naming the field and the value.
 */
export class AppDefinitionError extends ConfigurationError {
  override readonly code: string = 'apps.app-definition';
  override readonly name = 'AppDefinitionError';
  constructor(
    /** The resource URI or tool name the declaration is of. */
    readonly owner: string,
    /** The offending field as a path (`meta.csp.connectDomains[1]`). */
    readonly field: string,
    detail: string,
  ) {
    super(`${owner}: ${field} ${detail}`);
  }
}
