/** The extension's identifier (SEP-1865, MCP Apps). */
export const APPS_EXTENSION = 'io.modelcontextprotocol/ui';

/** The MIME type of an App's HTML, the only one the Apps specification defines so far. */
export const APP_MIME_TYPE = 'text/html;profile=mcp-app';

/**
 * The flat `_meta` key that carried a tool's resource URI before `_meta.ui.resourceUri`; the
 * specification deprecates it, and the official SDK's helpers still write it beside the nested
 * one so hosts reading either find the App.
 */
export const LEGACY_RESOURCE_URI_KEY = 'ui/resourceUri';

/** Origins an App may reach, as the host turns them into its Content-Security-Policy. */
export interface UiCsp {
  /** Origins for fetch, XHR and WebSocket (`connect-src`). */
  readonly connectDomains?: readonly string[];
  /** Origins for scripts, styles, images, fonts and media. */
  readonly resourceDomains?: readonly string[];
  /** Origins of nested frames (`frame-src`). */
  readonly frameDomains?: readonly string[];
  /** Base URIs the document may set (`base-uri`). */
  readonly baseUriDomains?: readonly string[];
}

/** Browser features an App asks for; hosts may grant them through the frame's `allow`. */
export interface UiPermissions {
  readonly camera?: Record<string, never> | true;
  readonly microphone?: Record<string, never> | true;
  readonly geolocation?: Record<string, never> | true;
  readonly clipboardWrite?: Record<string, never> | true;
}

/** The `_meta.ui` of a UI resource: how a host should sandbox and frame it. */
export interface UiResourceMeta {
  readonly csp?: UiCsp;
  readonly permissions?: UiPermissions;
  /** A dedicated origin for the App's frame, in the host's own format. */
  readonly domain?: string;
  /** Whether the host should draw a border and background around the App. */
  readonly prefersBorder?: boolean;
}

/** Who may call a tool: the model (the agent's tool list), the App, or both (the default). */
export type ToolAudience = 'model' | 'app';

/** The `_meta.ui` of a tool: the App that shows its results, and who may call it. */
export interface ToolUi {
  /** The `ui://` resource that renders the tool's results. */
  readonly resourceUri?: string;
  /** Omitted means `['model', 'app']`; `['app']` is a tool only the App calls. */
  readonly visibility?: readonly ToolAudience[];
}
