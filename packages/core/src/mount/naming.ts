import { ConfigurationError } from '../errors.js';
import type { Visibility } from '../visibility.js';

/** How `server.mount(other, options)` exposes the other server's items. */
export interface MountOptions {
  /**
   * Put in front of the mounted server's tool and prompt names with `_` (`weather` and tool `get`
   * give `weather_get`), and of its resource URIs when `resources` is `'prefix'`. 1 to 64
   * characters: an ASCII letter, then letters, digits, `-` or `.`, so that the prefixed name is a
   * valid tool name and the prefixed URI scheme a valid scheme. Omitted or `''`: names are kept.
   */
  namespace?: string;
  /**
   * `'keep'` (the default): resource URIs and templates are listed and read as the mounted server
   * has them. `'prefix'`: the namespace and `+` go in front of each (`file:///a.txt` becomes
   * `weather+file:///a.txt`, the template `file:///{path}` becomes `weather+file:///{path}`), so
   * two servers may offer the same URIs; it needs a namespace.
   */
  resources?: 'keep' | 'prefix';
  /** Who may see the mounted items, on top of each item's own rule (both must admit the caller). */
  visible?: Visibility;
}

/** What a mount names: tools and prompts by name, resources by URI, templates by URI template. */
export type ItemKind = 'tool' | 'prompt' | 'resource' | 'template';

/** The separator between a namespace and a mounted tool or prompt name. */
export const NAMESPACE_SEPARATOR = '_';

/** The namespace rule, for the check and its message. */
const NAMESPACE = /^[A-Za-z][A-Za-z0-9.-]{0,63}$/;

/**
 * The rule that maps a mounted server's names to the names its host offers, and back. A name
 * that does not carry the namespace maps back to nothing: it is not the mount's.
 */
export class MountNaming {
  private readonly prefix: string;
  private readonly uriPrefix: string;

  constructor(
    readonly namespace: string,
    resources: 'keep' | 'prefix',
  ) {
    if (namespace !== '' && !NAMESPACE.test(namespace))
      throw new ConfigurationError(
        `mount namespace ${JSON.stringify(namespace)}: a namespace is 1 to 64 characters, an ASCII letter first, then letters, digits, "-" or "." (it prefixes tool names and URI schemes)`,
      );
    if (resources === 'prefix' && namespace === '')
      throw new ConfigurationError('mount: resources: "prefix" needs a namespace');
    this.prefix = namespace === '' ? '' : `${namespace}${NAMESPACE_SEPARATOR}`;
    this.uriPrefix = resources === 'prefix' ? `${namespace}+` : '';
  }

  /** The name an item of the mounted server has in its host. */
  outer(kind: ItemKind, name: string): string {
    return (kind === 'tool' || kind === 'prompt' ? this.prefix : this.uriPrefix) + name;
  }

  /** The mounted server's own name for an item of its host; undefined when it is not the mount's. */
  inner(kind: ItemKind, name: string): string | undefined {
    const prefix = kind === 'tool' || kind === 'prompt' ? this.prefix : this.uriPrefix;
    return name.startsWith(prefix) ? name.slice(prefix.length) : undefined;
  }
}
