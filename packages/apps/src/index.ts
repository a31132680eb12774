export {
  APPS_EXTENSION,
  APP_MIME_TYPE,
  LEGACY_RESOURCE_URI_KEY,
  type ToolAudience,
  type ToolUi,
  type UiCsp,
  type UiPermissions,
  type UiResourceMeta,
} from './appsTypes.js';
export { AppDefinitionError } from './appDefinitionError.js';
export { apps, type AppsOptions } from './appsExtension.js';
export {
  uiResource,
  DEFAULT_MAX_HTML_BYTES,
  type HtmlSource,
  type UiResourceSpec,
} from './uiResource.js';
export { appTool, toolUiMeta, type AppToolHandler, type AppToolSpec } from './appTool.js';
export { MAX_CSP_ORIGINS, checkUiUri, resourceUiMeta, checkVisibility } from './uiMeta.js';
