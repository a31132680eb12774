import { objectAt, type JsonObject } from './jsonRpc.js';

/**
 * What the playground reads of a tool's `_meta.ui` (MCP Apps) before loading any App code: the
 * App's resource, and whether the model may see the tool.
 */

/** The `ui://` resource a tool's results are shown in (`_meta.ui.resourceUri`, or the flat key). */
export function appOf(tool: JsonObject | undefined): string | undefined {
  const meta = objectAt(tool, '_meta');
  const uri = objectAt(meta, 'ui')?.resourceUri ?? meta?.['ui/resourceUri'];
  return typeof uri === 'string' && uri.startsWith('ui://') ? uri : undefined;
}

/** Whether the model (here: the playground's tool list) may see a tool: not an app-only one. */
export function visibleToModel(tool: JsonObject): boolean {
  const visibility = objectAt(objectAt(tool, '_meta'), 'ui')?.visibility;
  return !Array.isArray(visibility) || visibility.includes('model');
}
