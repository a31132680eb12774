import type { Extension, RondoServer } from '@rondo/core';
import { runtimeOf } from '@rondo/core/internal';
import type { JsonObject } from '@rondo/protocol';
import { AppDefinitionError } from './appDefinitionError.js';
import { APP_MIME_TYPE, APPS_EXTENSION } from './appsTypes.js';

/** How the server announces the Apps extension. */
export interface AppsOptions {
  /** The App content types served, announced as `mimeTypes`; default `['text/html;profile=mcp-app']`. */
  readonly mimeTypes?: readonly string[];
}

/** The UI resources each server registered with `uiResource`, so an App tool can check its URI. */
const uiResources = new WeakMap<RondoServer, Set<string>>();

/**
 * The MCP Apps extension (`io.modelcontextprotocol/ui`, SEP-1865) for `server.use(...)`: it
 * announces `{ "mimeTypes": [...] }` under `capabilities.extensions` in `initialize` and
 * `server/discover`. `uiResource` and `appTool` use it on their server when it is not yet in use,
 * so calling it yourself is only needed to announce other MIME types.
 */
export function apps(options: AppsOptions = {}): Extension {
  const mimeTypes = [...(options.mimeTypes ?? [APP_MIME_TYPE])];
  if (mimeTypes.length === 0 || mimeTypes.some((type) => typeof type !== 'string' || type === ''))
    throw new AppDefinitionError(
      APPS_EXTENSION,
      'mimeTypes',
      'must be a non-empty list of MIME types',
    );
  return {
    id: APPS_EXTENSION,
    settings: (): JsonObject => ({ mimeTypes: [...mimeTypes] }),
  };
}

/** Uses the Apps extension on `server` unless it already does. */
export function useApps(server: RondoServer): void {
  const { extensions } = runtimeOf(server);
  if (!extensions.some((extension) => extension.id === APPS_EXTENSION)) server.use(apps());
}

/** Records that `server` serves the UI resource `uri`. */
export function rememberUiResource(server: RondoServer, uri: string): void {
  const known = uiResources.get(server) ?? new Set<string>();
  known.add(uri);
  uiResources.set(server, known);
}

/** Whether `server` serves the UI resource `uri` (registered with `uiResource`). */
export function servesUiResource(server: RondoServer, uri: string): boolean {
  return uiResources.get(server)?.has(uri) ?? false;
}
