import type { Era, JsonObject } from '@rondo/protocol';
import type { Extension, ExtensionHost } from './contracts/extension.js';
import { ConfigurationError } from './errors.js';

/** The identifiers an extension may take: `vendor-prefix/name`, as SEP-2133 spells them. */
const EXTENSION_ID = /^[a-z0-9][a-z0-9.-]*\/[A-Za-z0-9][A-Za-z0-9._/-]*$/;

/** Throws a `ConfigurationError` when `extension` cannot join `present` (bad or taken id, taken method). */
export function checkExtension(extension: Extension, present: readonly Extension[]): void {
  if (!EXTENSION_ID.test(extension.id))
    throw new ConfigurationError(
      `extension id "${extension.id}" is not a vendor-prefixed identifier (e.g. io.modelcontextprotocol/skills)`,
    );
  if (present.some((other) => other.id === extension.id))
    throw new ConfigurationError(`the extension ${extension.id} is already in use`);
  for (const method of Object.keys(extension.methods ?? {})) {
    const owner = present.find((other) => other.methods?.[method] !== undefined);
    if (owner)
      throw new ConfigurationError(
        `the extension ${extension.id} adds ${method}, which ${owner.id} already serves`,
      );
  }
}

/**
 * The `capabilities.extensions` object an era announces: what the providers announce
 * (`ProviderCapabilities.extensions`), then each extension's settings, merged over the providers'
 * under the same id (a Prolog provider declaring `ui` and a server using the Apps extension
 * announce one `io.modelcontextprotocol/ui`). Read once the server is ready.
 */
export function extensionSettings(
  extensions: readonly Extension[],
  era: Era,
  host: ExtensionHost,
): Record<string, JsonObject> {
  const announced: Record<string, JsonObject> = { ...host.capabilities().extensions };
  for (const extension of extensions) {
    const settings = extension.settings ? extension.settings(era, host) : {};
    if (settings !== undefined)
      announced[extension.id] = { ...announced[extension.id], ...settings };
  }
  return announced;
}

/** The extensions a server uses, in the order it took them. */
export class ServerExtensions {
  private readonly list: Extension[] = [];

  /** The extensions in use. */
  get all(): readonly Extension[] {
    return this.list;
  }

  /** Adds one after {@link checkExtension}. */
  add(extension: Extension): void {
    checkExtension(extension, this.list);
    this.list.push(extension);
  }

  /** The extension with this id, if in use. */
  get(id: string): Extension | undefined {
    return this.list.find((extension) => extension.id === id);
  }

  /** Closes every extension. */
  async close(): Promise<void> {
    await Promise.all(this.list.map(async (extension) => extension.close?.()));
  }
}
