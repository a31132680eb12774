import {
  AppBridge,
  PostMessageTransport,
  buildAllowAttribute,
  isToolVisibilityModelOnly,
} from '@modelcontextprotocol/ext-apps/app-bridge';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { APP_SANDBOX_PATH, appContentSecurityPolicy } from './appCsp.js';
import { appOf } from './appTools.js';
import { h } from './dom.js';
import { objectAt, textOf, type JsonObject } from './jsonRpc.js';
import type { McpClient } from './mcpClient.js';

/** The MIME type of an App's HTML (MCP Apps). */
const APP_MIME_TYPE = 'text/html;profile=mcp-app';
const HOST_INFO = { name: 'rondo-playground', version: '0.1.0' };

/**
 * The host side of MCP Apps in the playground. The page loads this module (and the official SDK's
 * bridge with it) only when a tool with an App is called, so the playground's own bundle stays small.
 */

/** The App shown now: a new one tears it down first. */
let current: { bridge: AppBridge; frame: HTMLIFrameElement } | undefined;

/** Removes the App shown, telling it first. */
export async function closeApp(): Promise<void> {
  const shown = current;
  current = undefined;
  if (!shown) return;
  await shown.bridge.teardownResource({ reason: 'replaced' }, { timeout: 1000 }).catch(() => {});
  await shown.bridge.close().catch(() => {});
  shown.frame.remove();
}

/** Reads the App's HTML and its `_meta.ui` through the playground's MCP client. */
async function readApp(client: McpClient, uri: string): Promise<{ html: string; ui?: JsonObject }> {
  const read = await client.call('resources/read', { uri });
  const contents = Array.isArray(read.contents) ? (read.contents as JsonObject[]) : [];
  const item = contents.find((entry) => entry.uri === uri) ?? contents[0];
  if (!item || item.mimeType !== APP_MIME_TYPE)
    throw new Error(`${uri} is not an App (${textOf(item?.mimeType, 'no contents')})`);
  const html = typeof item.text === 'string' ? item.text : atob(textOf(item.blob));
  const ui = objectAt(objectAt(item, '_meta'), 'ui');
  return ui ? { html, ui } : { html };
}

/**
 * Shows a tool's App, acting as the host side of MCP Apps: the App's HTML goes into a frame
 * sandboxed to scripts alone (an opaque origin, apart from the page's) under the CSP its resource
 * declares; the official SDK's `AppBridge` speaks the postMessage protocol with it, sending the
 * tool's input and result once the App has initialized, and relaying the App's `tools/call` to
 * the server: only for tools of this server whose visibility includes the App.
 */
export async function showApp(
  container: HTMLElement,
  client: McpClient,
  tools: readonly JsonObject[],
  call: { tool: JsonObject; args: JsonObject; result: JsonObject },
): Promise<void> {
  await closeApp();
  const uri = appOf(call.tool);
  if (!uri) return;
  const { html, ui } = await readApp(client, uri);
  const frame = h('iframe', {
    sandbox: 'allow-scripts',
    title: `MCP App ${uri}`,
    class: ui?.prefersBorder === false ? 'app-frame' : 'app-frame bordered',
    'data-testid': 'app-frame',
    'data-uri': uri,
  });
  const allow = buildAllowAttribute(objectAt(ui, 'permissions'));
  if (allow) frame.allow = allow;
  container.replaceChildren(h('p', { class: 'muted' }, 'App ', h('code', {}, uri)), frame);
  const bridge = new AppBridge(
    null,
    HOST_INFO,
    { serverTools: {}, logging: {} },
    { hostContext: { theme: 'light', platform: 'web', displayMode: 'inline' } },
  );
  bridge.oncalltool = async (params) => {
    const target = tools.find((tool) => tool.name === params.name);
    if (!target) throw new Error(`Unknown tool: ${params.name}`);
    if (isToolVisibilityModelOnly(target))
      throw new Error(`The tool ${params.name} is not callable from an App`);
    const result = await client.call('tools/call', {
      name: params.name,
      arguments: params.arguments ?? {},
    });
    return result as CallToolResult;
  };
  bridge.oninitialized = () => {
    void bridge
      .sendToolInput({ arguments: call.args })
      .then(() => bridge.sendToolResult(call.result as CallToolResult));
  };
  bridge.onsizechange = ({ height }) => {
    if (height !== undefined) frame.style.height = `${Math.min(height, 800)}px`;
  };
  // The frame exists (and has its window) once attached; listen before its document loads.
  await bridge.connect(new PostMessageTransport(frame.contentWindow!, frame.contentWindow!));
  current = { bridge, frame };
  // The policy goes in the sandbox page's response header, never into the App's HTML, which the
  // page then writes into its own document (see the server's appSandbox.ts).
  const policy = appContentSecurityPolicy(objectAt(ui, 'csp'));
  frame.addEventListener(
    'load',
    () => frame.contentWindow?.postMessage({ rondoAppHtml: html }, '*'),
    { once: true },
  );
  frame.src = `${APP_SANDBOX_PATH}?csp=${encodeURIComponent(policy)}`;
}
