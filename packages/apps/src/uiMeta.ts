import type { JsonObject } from '@rondo/protocol';
import { AppDefinitionError } from './appDefinitionError.js';
import type { ToolAudience } from './appsTypes.js';

/** The most origins one CSP list may name: a host builds a header from them. */
export const MAX_CSP_ORIGINS = 64;

const CSP_LISTS = ['connectDomains', 'resourceDomains', 'frameDomains', 'baseUriDomains'] as const;
const PERMISSIONS = ['camera', 'microphone', 'geolocation', 'clipboardWrite'] as const;
const RESOURCE_META_KEYS = ['csp', 'permissions', 'domain', 'prefersBorder'] as const;
const AUDIENCES: readonly ToolAudience[] = ['model', 'app'];

/**
 * An origin as a CSP source list takes it: a scheme among http(s) and ws(s), a host (its first
 * label may be `*` for any subdomain), an optional port. Nothing else, so a value can neither
 * widen the policy (`*`, `'unsafe-eval'`) nor end the directive and add another (`;`).
 */
const CSP_ORIGIN =
  /^(https?|wss?):\/\/(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*(:\d{1,5})?\/?$/i;

/** A host's domain for the App's frame: a host name, at most 253 characters. */
const FRAME_DOMAIN = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/i;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Checks a UI resource's URI: the `ui://` scheme, then something, and no whitespace, control
 * character or fragment. Throws an {@link AppDefinitionError} naming `field`.
 */
export function checkUiUri(uri: unknown, owner: string, field: string): string {
  if (typeof uri !== 'string') throw new AppDefinitionError(owner, field, 'must be a string');
  if (!uri.startsWith('ui://'))
    throw new AppDefinitionError(owner, field, `must use the ui:// scheme, not "${uri}"`);
  if (uri.length === 'ui://'.length)
    throw new AppDefinitionError(owner, field, 'names nothing after ui://');
  if (/[\s\u0000-\u001f\u007f#]/.test(uri))
    throw new AppDefinitionError(
      owner,
      field,
      `"${uri}" has whitespace, a control character or a fragment`,
    );
  if (!URL.canParse(uri)) throw new AppDefinitionError(owner, field, `"${uri}" is not a URI`);
  return uri;
}

function checkOrigins(value: unknown, owner: string, field: string): string[] {
  if (!Array.isArray(value))
    throw new AppDefinitionError(owner, field, 'must be a list of origins');
  if (value.length > MAX_CSP_ORIGINS)
    throw new AppDefinitionError(
      owner,
      field,
      `names ${value.length} origins, over ${MAX_CSP_ORIGINS}`,
    );
  return value.map((origin: unknown, index) => {
    if (typeof origin !== 'string' || !CSP_ORIGIN.test(origin))
      throw new AppDefinitionError(
        owner,
        `${field}[${index}]`,
        `is not an origin (scheme://host[:port], e.g. https://api.example.com or https://*.example.com): ${JSON.stringify(origin)}`,
      );
    return origin;
  });
}

function checkUnknownKeys(
  value: Record<string, unknown>,
  known: readonly string[],
  owner: string,
  field: string,
): void {
  for (const key of Object.keys(value))
    if (!known.includes(key))
      throw new AppDefinitionError(
        owner,
        `${field}.${key}`,
        `is not a member the Apps specification defines (${known.join(', ')})`,
      );
}

function checkCsp(value: unknown, owner: string): JsonObject {
  if (!isPlainObject(value)) throw new AppDefinitionError(owner, 'meta.csp', 'must be an object');
  checkUnknownKeys(value, CSP_LISTS, owner, 'meta.csp');
  const csp: JsonObject = {};
  for (const list of CSP_LISTS)
    if (value[list] !== undefined) csp[list] = checkOrigins(value[list], owner, `meta.csp.${list}`);
  return csp;
}

function checkPermissions(value: unknown, owner: string): JsonObject {
  if (!isPlainObject(value))
    throw new AppDefinitionError(owner, 'meta.permissions', 'must be an object');
  checkUnknownKeys(value, PERMISSIONS, owner, 'meta.permissions');
  const permissions: JsonObject = {};
  for (const permission of PERMISSIONS) {
    const asked = value[permission];
    if (asked === undefined || asked === false) continue;
    // The wire form of a requested permission is an empty object; `true` is shorthand for it.
    if (asked !== true && !(isPlainObject(asked) && Object.keys(asked).length === 0))
      throw new AppDefinitionError(
        owner,
        `meta.permissions.${permission}`,
        'must be {} or true (the feature is asked for) or false',
      );
    permissions[permission] = {};
  }
  return permissions;
}

/**
 * Checks a UI resource's `_meta.ui` (the shape of `UiResourceMeta`) and returns its wire form:
 * origins as they are, each requested permission as `{}`. Unknown members, an origin a CSP cannot
 * take and a domain that is not a host name throw an {@link AppDefinitionError}.
 */
export function resourceUiMeta(meta: unknown, owner: string): JsonObject {
  if (!isPlainObject(meta)) throw new AppDefinitionError(owner, 'meta', 'must be an object');
  checkUnknownKeys(meta, RESOURCE_META_KEYS, owner, 'meta');
  const ui: JsonObject = {};
  if (meta.csp !== undefined) ui.csp = checkCsp(meta.csp, owner);
  if (meta.permissions !== undefined) ui.permissions = checkPermissions(meta.permissions, owner);
  if (meta.domain !== undefined) {
    const domain = meta.domain;
    if (typeof domain !== 'string' || domain.length > 253 || !FRAME_DOMAIN.test(domain))
      throw new AppDefinitionError(
        owner,
        'meta.domain',
        `must be a host name (e.g. app.example.com): ${JSON.stringify(domain)}`,
      );
    ui.domain = domain;
  }
  if (meta.prefersBorder !== undefined) {
    if (typeof meta.prefersBorder !== 'boolean')
      throw new AppDefinitionError(owner, 'meta.prefersBorder', 'must be true or false');
    ui.prefersBorder = meta.prefersBorder;
  }
  return ui;
}

/**
 * Checks a tool's `visibility`: a non-empty list of `'model'` and `'app'`, each at most once.
 * Throws an {@link AppDefinitionError} otherwise.
 */
export function checkVisibility(value: unknown, owner: string): ToolAudience[] {
  const field = 'ui.visibility';
  if (!Array.isArray(value) || value.length === 0)
    throw new AppDefinitionError(owner, field, "must be a non-empty list of 'model' and 'app'");
  const seen = new Set<ToolAudience>();
  for (const [index, audience] of value.entries()) {
    if (!AUDIENCES.includes(audience as ToolAudience))
      throw new AppDefinitionError(
        owner,
        `${field}[${index}]`,
        `must be 'model' or 'app', not ${JSON.stringify(audience)}`,
      );
    if (seen.has(audience as ToolAudience))
      throw new AppDefinitionError(owner, `${field}[${index}]`, `repeats '${String(audience)}'`);
    seen.add(audience as ToolAudience);
  }
  return [...seen];
}
