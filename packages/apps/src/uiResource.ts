import { McpError, ErrorCode, type JsonObject, type ResourceResult } from '@rondo/protocol';
import type { RondoServer, Visibility } from '@rondo/core';
import { AppDefinitionError } from './appDefinitionError.js';
import { APP_MIME_TYPE, type UiResourceMeta } from './appsTypes.js';
import { rememberUiResource, useApps } from './appsExtension.js';
import { checkUiUri, resourceUiMeta } from './uiMeta.js';

/** The largest App document served by default (4 MiB): a host loads it whole into a frame. */
export const DEFAULT_MAX_HTML_BYTES = 4 * 1024 * 1024;

/** The App's HTML: a string, or a function read on every `resources/read` (a file, a template). */
export type HtmlSource = string | (() => string | Promise<string>);

/** A UI resource as `uiResource(server, spec)` takes it. */
export interface UiResourceSpec {
  /** The resource's URI, in the `ui://` scheme (`ui://lamp/view.html`). */
  readonly uri: string;
  /** The name hosts list it under. */
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  /** The HTML5 document; `htmlFile(path)` of `@rondo/apps/node` reads one from disk. */
  readonly html: HtmlSource;
  /** The resource's `_meta.ui`: CSP origins, permissions, a dedicated domain, a border. */
  readonly meta?: UiResourceMeta;
  /** The largest document served, in bytes (default {@link DEFAULT_MAX_HTML_BYTES}). */
  readonly maxBytes?: number;
  /** Who may see the resource (as `server.resource`'s `visible`). */
  readonly visible?: Visibility;
}

/**
 * Registers an App's HTML as a `ui://` resource served as `text/html;profile=mcp-app`, its
 * `_meta.ui` on both the listed descriptor and the read contents, and uses the Apps extension on
 * `server`. The spec is checked here: a URI outside `ui://`, an empty name or HTML, an unknown
 * `meta` member or an origin a CSP cannot take throws an {@link AppDefinitionError}. A document
 * over `maxBytes` is refused at read time with -32603 naming the size.
 */
export function uiResource(server: RondoServer, spec: UiResourceSpec): RondoServer {
  const uri = checkUiUri(spec.uri, String(spec.uri), 'uri');
  if (typeof spec.name !== 'string' || spec.name.trim() === '')
    throw new AppDefinitionError(uri, 'name', 'must be a non-empty string');
  const html = spec.html;
  if (typeof html !== 'function' && (typeof html !== 'string' || html.trim() === ''))
    throw new AppDefinitionError(
      uri,
      'html',
      'must be a non-empty string or a function giving one',
    );
  const maxBytes = spec.maxBytes ?? DEFAULT_MAX_HTML_BYTES;
  if (!Number.isSafeInteger(maxBytes) || maxBytes <= 0)
    throw new AppDefinitionError(uri, 'maxBytes', 'must be a positive integer');
  const ui = spec.meta === undefined ? undefined : resourceUiMeta(spec.meta, uri);
  const meta: JsonObject | undefined = ui === undefined ? undefined : { ui };
  useApps(server);
  server.resource(
    uri,
    {
      name: spec.name,
      mimeType: APP_MIME_TYPE,
      ...(spec.title === undefined ? {} : { title: spec.title }),
      ...(spec.description === undefined ? {} : { description: spec.description }),
      ...(meta === undefined ? {} : { _meta: meta }),
      ...(spec.visible === undefined ? {} : { visible: spec.visible }),
    },
    async (): Promise<ResourceResult> => {
      const text = await readHtml(html, uri, maxBytes);
      return {
        kind: 'contents',
        contents: [
          {
            kind: 'text_content',
            uri,
            mimeType: APP_MIME_TYPE,
            text,
            ...(meta === undefined ? {} : { meta }),
          },
        ],
      };
    },
  );
  rememberUiResource(server, uri);
  return server;
}

async function readHtml(source: HtmlSource, uri: string, maxBytes: number): Promise<string> {
  const text = typeof source === 'string' ? source : await source();
  if (typeof text !== 'string')
    throw new McpError(ErrorCode.InternalError, `The HTML of ${uri} is not a string`, { uri });
  const bytes = new TextEncoder().encode(text).byteLength;
  if (bytes > maxBytes)
    throw new McpError(
      ErrorCode.InternalError,
      `The HTML of ${uri} is ${bytes} bytes, over the ${maxBytes}-byte limit`,
      { uri, bytes, maxBytes },
    );
  return text;
}
