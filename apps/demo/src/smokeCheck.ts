import { WebSocket } from 'ws';
import { APP_MIME_TYPE } from '@rondo/apps';
import { LATEST_LEGACY_REVISION, LATEST_MODERN_REVISION, MetaKey } from '@rondo/protocol';
import { LAMP_URI } from './providers/lamp.js';

const MODERN = LATEST_MODERN_REVISION;
const LEGACY = LATEST_LEGACY_REVISION;

/** One check of the smoke run and what it saw. */
export interface SmokeResult {
  name: string;
  ok: boolean;
  detail: string;
}

const modernMeta = {
  [MetaKey.protocolVersion]: MODERN,
  [MetaKey.clientCapabilities]: {},
  [MetaKey.clientInfo]: { name: 'rondo-demo-smoke', version: '0.1.0' },
};

/** Reads a JSON-RPC response from a JSON body or from the last `data:` line of an SSE body. */
function responseFrom(body: string, contentType: string): Record<string, unknown> {
  if (!contentType.includes('text/event-stream'))
    return JSON.parse(body) as Record<string, unknown>;
  const events = body.split('\n').filter((line) => line.startsWith('data:'));
  const last = events.at(-1);
  if (!last) throw new Error('empty SSE response');
  return JSON.parse(last.slice(5)) as Record<string, unknown>;
}

interface Reply {
  message: Record<string, unknown>;
  sessionId: string | null;
}

async function post(
  url: string,
  method: string,
  params: object,
  version: string,
  name?: string,
): Promise<Reply> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': version,
      'mcp-method': method,
      // The modern wire mirrors a request's target (a resource URI, say) in Mcp-Name.
      ...(name === undefined ? {} : { 'mcp-name': name }),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = await response.text();
  if (!response.ok) throw new Error(`HTTP ${response.status}: ${body.slice(0, 200)}`);
  const message = responseFrom(body, response.headers.get('content-type') ?? '');
  return { message, sessionId: response.headers.get('mcp-session-id') };
}

async function checkDiscover(baseUrl: string): Promise<string> {
  const reply = (await post(`${baseUrl}/mcp`, 'server/discover', { _meta: modernMeta }, MODERN))
    .message;
  const result = reply.result as { supportedVersions?: string[] } | undefined;
  if (!result?.supportedVersions?.includes(MODERN))
    throw new Error(`unexpected reply ${JSON.stringify(reply)}`);
  return `supportedVersions ${result.supportedVersions.join(', ')}`;
}

async function checkInitialize(baseUrl: string): Promise<string> {
  const params = {
    protocolVersion: LEGACY,
    capabilities: {},
    clientInfo: { name: 'rondo-demo-smoke', version: '0.1.0' },
  };
  const { message: reply, sessionId } = await post(`${baseUrl}/mcp`, 'initialize', params, LEGACY);
  // End the session at once: a smoke run should leave nothing behind on the server.
  if (sessionId) {
    const headers = { 'mcp-session-id': sessionId, 'mcp-protocol-version': LEGACY };
    await fetch(`${baseUrl}/mcp`, { method: 'DELETE', headers }).catch(() => undefined);
  }
  const result = reply.result as
    { protocolVersion?: string; serverInfo?: { name?: string } } | undefined;
  if (result?.protocolVersion !== LEGACY)
    throw new Error(`unexpected reply ${JSON.stringify(reply)}`);
  return `negotiated ${result.protocolVersion} with ${result.serverInfo?.name ?? '?'}`;
}

async function checkWebSocket(baseUrl: string, timeoutMs: number): Promise<string> {
  const socket = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/ws`, 'mcp');
  try {
    const reply = await new Promise<Record<string, unknown>>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no WebSocket reply in time')), timeoutMs);
      socket.once('error', reject);
      socket.once('open', () => {
        const request = {
          jsonrpc: '2.0',
          id: 7,
          method: 'tools/list',
          params: { _meta: modernMeta },
        };
        socket.send(JSON.stringify(request));
      });
      socket.on('message', (data: Buffer) => {
        const message = JSON.parse(data.toString('utf8')) as Record<string, unknown>;
        if (message.id !== 7) return;
        clearTimeout(timer);
        resolve(message);
      });
    });
    const tools = (reply.result as { tools?: { name: string }[] } | undefined)?.tools;
    if (!tools) throw new Error(`unexpected reply ${JSON.stringify(reply)}`);
    return `tools/list over /ws: ${tools.map((tool) => tool.name).join(', ')}`;
  } finally {
    socket.close();
  }
}

/** Reads the lamp App's HTML (bundled by build.mjs) as an MCP Apps host would, over HTTP. */
async function checkLampApp(baseUrl: string): Promise<string> {
  const params = { uri: LAMP_URI, _meta: modernMeta };
  const reply = (await post(`${baseUrl}/mcp`, 'resources/read', params, MODERN, LAMP_URI)).message;
  const contents = (reply.result as { contents?: { mimeType?: string; text?: string }[] })
    ?.contents?.[0];
  if (contents?.mimeType !== APP_MIME_TYPE || !contents.text?.includes('<script'))
    throw new Error(`unexpected reply ${JSON.stringify(reply).slice(0, 300)}`);
  return `${LAMP_URI}: ${contents.text.length} characters of ${contents.mimeType}`;
}

/**
 * The checks behind `--smoke` (and `.ci/run`): the modern `server/discover` and the legacy
 * `initialize` over HTTP, a modern call over the WebSocket, and the lamp App's HTML. Each failure is reported, not thrown.
 */
export async function runSmokeChecks(baseUrl: string, timeoutMs = 10_000): Promise<SmokeResult[]> {
  const checks: [string, () => Promise<string>][] = [
    ['server/discover over HTTP (modern)', () => checkDiscover(baseUrl)],
    ['initialize over HTTP (legacy)', () => checkInitialize(baseUrl)],
    ['tools/list over WebSocket (modern)', () => checkWebSocket(baseUrl, timeoutMs)],
    ['the lamp App over HTTP (MCP Apps)', () => checkLampApp(baseUrl)],
  ];
  const results: SmokeResult[] = [];
  for (const [name, check] of checks) {
    try {
      results.push({ name, ok: true, detail: await check() });
    } catch (failure) {
      results.push({
        name,
        ok: false,
        detail: failure instanceof Error ? failure.message : String(failure),
      });
    }
  }
  return results;
}
