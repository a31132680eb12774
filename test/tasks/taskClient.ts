import { TASKS_EXTENSION } from '@rondo/protocol';

/**
 * A bare modern client for the Tasks tests: one JSON-RPC request per HTTP POST on a fresh
 * connection, with the 2026-07-28 headers (`Mcp-Name` carries the task id on `tasks/*`) and an
 * optional bearer token. It reads a JSON answer or the answer at the end of an SSE stream.
 */

export type Json = Record<string, unknown>;

/** A JSON-RPC answer: `result` or `error`. */
export interface Answer {
  status: number;
  result?: Json;
  error?: { code: number; message: string; data?: unknown };
}

const NAME_FROM: Record<string, string> = {
  'tools/call': 'name',
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
};

let nextId = 1;

/** The client capabilities of a client that declares the Tasks extension (and form elicitation). */
export const WITH_TASKS: Json = { elicitation: {}, extensions: { [TASKS_EXTENSION]: {} } };

/** Sends one request and reads its answer. */
export async function rpc(
  url: string,
  method: string,
  params: Json,
  options: { capabilities?: Json; token?: string } = {},
): Promise<Answer> {
  const body = {
    jsonrpc: '2.0',
    id: nextId++,
    method,
    params: {
      ...params,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientCapabilities': options.capabilities ?? WITH_TASKS,
      },
    },
  };
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': method,
    connection: 'close',
  };
  const nameMember = NAME_FROM[method];
  if (nameMember !== undefined) headers['mcp-name'] = String(params[nameMember]);
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
  const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
  const text = await response.text();
  const answer = lastMessage(text, response.headers.get('content-type') ?? '');
  return { status: response.status, ...answer };
}

function lastMessage(text: string, contentType: string): Pick<Answer, 'result' | 'error'> {
  if (!contentType.includes('text/event-stream')) return JSON.parse(text) as Answer;
  const messages = text
    .split('\n')
    .filter((line) => line.startsWith('data:') && line.length > 5)
    .map((line) => JSON.parse(line.slice(5)) as Answer & { id?: unknown });
  return messages.findLast((message) => message.id !== undefined) ?? {};
}

/** Polls `tasks/get` until the task's status is one of `statuses` (within `timeoutMs`). */
export async function waitForStatus(
  url: string,
  taskId: string,
  statuses: readonly string[],
  options: { token?: string; timeoutMs?: number } = {},
): Promise<Json> {
  const deadline = Date.now() + (options.timeoutMs ?? 5000);
  for (;;) {
    const { result, error } = await rpc(url, 'tasks/get', { taskId }, options);
    if (error !== undefined) throw new Error(`tasks/get failed: ${error.message}`);
    if (statuses.includes(String(result?.status))) return result!;
    if (Date.now() > deadline) throw new Error(`task ${taskId} stayed ${String(result?.status)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Bearer-token auth for the tasks tests: the tokens `alice` and `bob` are two principals, any other
 * token is refused.
 */
export function twoPrincipalAuth(resource: string) {
  return {
    resource,
    authorizationServers: ['http://127.0.0.1/auth'],
    verifyToken: (token: string) =>
      ['alice', 'bob'].includes(token)
        ? { subject: token, scopes: [], audience: resource }
        : undefined,
  };
}
