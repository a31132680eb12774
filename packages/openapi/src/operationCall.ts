import type { Json, JsonObject, ToolResult } from '@rondo/protocol';
import type { AppliedCredentials } from './credentials.js';
import type { Operation } from './operations.js';
import { readBounded } from './source.js';

/** How one call is made: where, how long it may take, and how much of the answer is read. */
export interface CallSettings {
  readonly baseUrl: string;
  readonly timeoutMs: number;
  readonly maxResponseBytes: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly fetch: typeof fetch;
}

/** How much of a non-2xx answer's body a tool error quotes. */
export const ERROR_BODY_CHARS = 2000;

/** The request an operation's call makes: its URL and its init. */
export function requestOf(
  operation: Operation,
  args: Record<string, unknown>,
  credentials: AppliedCredentials,
  settings: CallSettings,
): { url: URL; init: RequestInit } {
  let path = operation.path;
  const query = new URLSearchParams();
  const headers: Record<string, string> = {
    accept: 'application/json',
    ...settings.headers,
    ...credentials.headers,
  };
  const cookies: string[] = credentials.headers.cookie ? [credentials.headers.cookie] : [];
  for (const parameter of operation.parameters) {
    const value = args[parameter.argument];
    if (value === undefined) continue;
    if (parameter.in === 'path')
      path = path.replaceAll(`{${parameter.name}}`, encodeURIComponent(scalar(value)));
    else if (parameter.in === 'query')
      for (const item of Array.isArray(value) ? value : [value])
        query.append(parameter.name, scalar(item));
    else if (parameter.in === 'header')
      headers[parameter.name.toLowerCase()] = Array.isArray(value)
        ? value.map(scalar).join(',')
        : scalar(value);
    else cookies.push(`${parameter.name}=${encodeURIComponent(scalar(value))}`);
  }
  for (const [key, value] of Object.entries(credentials.query)) query.append(key, value);
  if (cookies.length > 0) headers.cookie = cookies.join('; ');
  const base = settings.baseUrl.endsWith('/') ? settings.baseUrl.slice(0, -1) : settings.baseUrl;
  const url = new URL(`${base}${path}`);
  for (const [key, value] of query) url.searchParams.append(key, value);
  const init: RequestInit = { method: operation.method.toUpperCase(), headers };
  const body = args.body;
  if (operation.body && body !== undefined) {
    if (operation.body.mediaType === 'application/x-www-form-urlencoded') {
      init.body = new URLSearchParams(
        Object.entries(body as Record<string, unknown>).map(([k, v]): [string, string] => [
          k,
          scalar(v),
        ]),
      );
    } else if (operation.body.mediaType === 'multipart/form-data') {
      const form = new FormData();
      for (const [k, v] of Object.entries(body as Record<string, unknown>))
        form.append(k, scalar(v));
      init.body = form;
    } else {
      headers['content-type'] = operation.body.mediaType;
      init.body = JSON.stringify(body);
    }
  }
  return { url, init };
}

function scalar(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * The tool result of an answer: a 2xx JSON answer as structured content (wrapped as `{ result }`
 * when the operation says so), any other 2xx as text, a non-2xx as a tool error with the status
 * and the start of the body, and an answer past the size cap as a tool error; reading stops there.
 */
export async function resultOf(
  operation: Operation,
  response: Response,
  maxBytes: number,
): Promise<ToolResult> {
  const read = await readBounded(response, maxBytes);
  if (read.cut)
    return {
      kind: 'error',
      text: `HTTP ${response.status}: the answer is larger than the cap of ${maxBytes} bytes; it was cut there and not used`,
    };
  if (!response.ok) {
    const body =
      read.text.length > ERROR_BODY_CHARS ? `${read.text.slice(0, ERROR_BODY_CHARS)}…` : read.text;
    return {
      kind: 'error',
      text: `HTTP ${response.status} ${response.statusText}${body ? `: ${body}` : ''}`,
    };
  }
  const type = response.headers.get('content-type') ?? '';
  if (/json/i.test(type) && read.text !== '') {
    let value: Json;
    try {
      value = JSON.parse(read.text) as Json;
    } catch {
      return { kind: 'error', text: `HTTP ${response.status}: the answer is not valid JSON` };
    }
    const structured: JsonObject =
      operation.wrapsResult || value === null || typeof value !== 'object' || Array.isArray(value)
        ? { result: value }
        : value;
    return { kind: 'structured', structured, items: [{ kind: 'text', text: read.text }] };
  }
  return { kind: 'text', text: read.text === '' ? `HTTP ${response.status}` : read.text };
}
