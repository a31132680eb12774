import type { RondoServer, SchemaInput, ToolSpec } from '@rondo/core';
import type { JsonObject } from '@rondo/protocol';
import { AppDefinitionError } from './appDefinitionError.js';
import { LEGACY_RESOURCE_URI_KEY, type ToolUi } from './appsTypes.js';
import { servesUiResource, useApps } from './appsExtension.js';
import { checkUiUri, checkVisibility } from './uiMeta.js';

/** The handler `server.tool` takes for a tool whose input schema is `S`. */
export type AppToolHandler<S extends SchemaInput> = Parameters<
  typeof RondoServer.prototype.tool<S>
>[2];

/** A tool tied to an App: `server.tool`'s spec plus its `ui`. */
export type AppToolSpec<S extends SchemaInput> = ToolSpec<S> & {
  /** The App that shows the tool's results, and who may call the tool. */
  readonly ui: ToolUi;
};

/**
 * The `_meta` a tool tied to an App carries: `ui` with `resourceUri` and `visibility` as given
 * (an omitted visibility means both the model and the App), and the deprecated flat
 * `ui/resourceUri` beside it, as the official SDK's `registerAppTool` writes, for hosts that read
 * only that. `resourceUri` must name a resource `server` serves through `uiResource` (register it
 * first); a bad URI or visibility throws an {@link AppDefinitionError} naming the tool.
 */
export function toolUiMeta(server: RondoServer, tool: string, ui: ToolUi): JsonObject {
  const owner = `tool "${tool}"`;
  if (typeof ui !== 'object' || ui === null)
    throw new AppDefinitionError(owner, 'ui', 'must be an object');
  for (const key of Object.keys(ui))
    if (key !== 'resourceUri' && key !== 'visibility')
      throw new AppDefinitionError(
        owner,
        `ui.${key}`,
        "is not a member of a tool's _meta.ui (resourceUri, visibility)",
      );
  const meta: JsonObject = {};
  const wire: JsonObject = {};
  if (ui.resourceUri !== undefined) {
    const uri = checkUiUri(ui.resourceUri, owner, 'ui.resourceUri');
    if (!servesUiResource(server, uri))
      throw new AppDefinitionError(
        owner,
        'ui.resourceUri',
        `names ${uri}, which this server does not serve: register it with uiResource first`,
      );
    wire.resourceUri = uri;
    meta[LEGACY_RESOURCE_URI_KEY] = uri;
  }
  if (ui.visibility !== undefined) wire.visibility = checkVisibility(ui.visibility, owner);
  if (wire.resourceUri === undefined && wire.visibility === undefined)
    throw new AppDefinitionError(owner, 'ui', 'names neither a resourceUri nor a visibility');
  return { ui: wire, ...meta };
}

/**
 * Registers a tool tied to an App (`server.tool` with the `_meta` of {@link toolUiMeta}) and uses
 * the Apps extension on `server`. With `visibility: ['app']` the tool is for the App alone: it is
 * listed with that visibility, and hosts leave it out of the model's tools while the App still
 * calls it through them (the Apps specification puts that filter in the host, which alone knows
 * whether a call comes from the model or the App). A `_meta.ui` already in the spec throws: the
 * `ui` member says it.
 */
export function appTool<S extends SchemaInput>(
  server: RondoServer,
  name: string,
  spec: AppToolSpec<S>,
  handler: AppToolHandler<S>,
): RondoServer {
  const { ui, ...toolSpec } = spec;
  if (toolSpec._meta?.ui !== undefined || toolSpec._meta?.[LEGACY_RESOURCE_URI_KEY] !== undefined)
    throw new AppDefinitionError(
      `tool "${name}"`,
      '_meta.ui',
      'is set by the ui member: drop it from _meta',
    );
  const meta = { ...toolSpec._meta, ...toolUiMeta(server, name, ui) };
  useApps(server);
  return server.tool(name, { ...toolSpec, _meta: meta }, handler);
}
