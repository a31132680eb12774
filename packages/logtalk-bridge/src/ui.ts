import type { ProviderCapabilities, ResourceOutcome } from '@rondo/core';
import type { JsonObject, ResourceResult } from '@rondo/protocol';
import type { ProviderDescription } from './messages.js';

/** The MCP Apps extension's identifier under `capabilities.extensions`. */
export const UI_EXTENSION = 'io.modelcontextprotocol/ui';
/** The MIME type of an MCP App's HTML (`ui://` resources). */
export const UI_MIME_TYPE = 'text/html;profile=mcp-app';

/**
 * The extensions a provider announces: `io.modelcontextprotocol/ui` (with the App MIME type, as
 * Logtalk's `mcp_server` announces it) when its `capabilities/1` lists `ui`; none otherwise.
 */
export function providerExtensions(
  declared: readonly string[],
): ProviderCapabilities['extensions'] | undefined {
  return declared.includes('ui') ? { [UI_EXTENSION]: { mimeTypes: [UI_MIME_TYPE] } } : undefined;
}

/** The `_meta.ui` of each described resource that has one (`resource_ui_meta/2`), by URI. */
export function uiMetaByUri(d: ProviderDescription): Map<string, JsonObject> {
  const found = new Map<string, JsonObject>();
  for (const resource of d.resources)
    if (resource._meta) found.set(resource.uri, resource._meta.ui);
  return found;
}

/**
 * A read's outcome with its resource's `_meta.ui` on each content of a URI that has one, so a host
 * finds the App's CSP and permissions where it reads the HTML. A content giving its own `_meta.ui`
 * (`text_content/4`) keeps it; a round asking for input is left as it is.
 */
export function withContentUi(
  outcome: ResourceOutcome,
  ui: ReadonlyMap<string, JsonObject>,
): ResourceOutcome {
  if (ui.size === 0) return outcome;
  if (outcome.kind === 'complete') return { ...outcome, result: withUi(outcome.result, ui) };
  return outcome.kind === 'contents' ? withUi(outcome, ui) : outcome;
}

function withUi(result: ResourceResult, ui: ReadonlyMap<string, JsonObject>): ResourceResult {
  const contents = result.contents.map((content) => {
    const meta = ui.get(content.uri);
    if (meta === undefined || content.meta?.ui !== undefined) return content;
    return { ...content, meta: { ...content.meta, ui: meta } };
  });
  return { ...result, contents };
}
