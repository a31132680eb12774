import {
  createPrologProvider,
  PrologCallError,
  PrologConfigurationError,
  PrologLoadError,
  PrologProviderError,
} from '@rondo/logtalk-bridge';
import { serve } from '@rondo/server';
import { createLogtalkHost, type LogtalkHostOptions } from './host.js';

type JsonObject = Record<string, unknown>;

/** Where `check` and `call` write: their report on `out`, diagnostics on `err`. */
export interface DevToolOutput {
  out(line: string): void;
  err(line: string): void;
}

/**
 * `rondo-logtalk check FILE...`: loads the files in one worker and runs the checks serving runs
 * at start, without serving: one `file:line: message` per problem on `out`, the same lines the
 * server prints before it exits. Exit code 0 when nothing is wrong, 1 otherwise (a load error
 * included).
 */
export async function runCheck(
  options: LogtalkHostOptions,
  output: DevToolOutput,
): Promise<number> {
  const {
    serverName: _n,
    serverVersion: _v,
    serverDescription: _d,
    serverTitle: _t,
    serverLog: _l,
    ...bridge
  } = options;
  let provider;
  try {
    provider = await createPrologProvider({ ...bridge, workers: 1 });
  } catch (failure) {
    const lines = startFailureLines(failure, options.files);
    if (!lines) throw failure;
    for (const line of lines) output.out(line);
    output.err(`${options.files.join(' ')}: ${problemCount(lines.length)}`);
    return 1;
  }
  output.err(`${provider.name}: no problems found`);
  await provider.close();
  return 0;
}

const problemCount = (n: number) => `${n} problem${n === 1 ? '' : 's'}`;

/**
 * What a failed start says, one line each: the load error, the provider's problems, a bad
 * option or a missing file. Undefined for a failure that is none of these (a bug: shown whole).
 * Serving and `check` print these same lines.
 */
export function startFailureLines(
  failure: unknown,
  files: readonly string[],
): string[] | undefined {
  if (failure instanceof PrologProviderError) return [...failure.lines];
  if (failure instanceof PrologLoadError) return [loadErrorText(failure)];
  if (failure instanceof PrologConfigurationError) return [failure.message];
  // A description the worker could not build (a result term of an unknown shape, say).
  if (failure instanceof PrologCallError) return [`${files[0]}: ${failure.message}`];
  return undefined;
}

/**
 * `rondo-logtalk call FILE TOOL '{json}'`: serves the provider on a private loopback HTTP port,
 * calls one tool as a 2026-07-28 client would (so schemas, validation and result shaping are
 * the server's own), prints the result as JSON and stops. Exit code 0 for a result, 1 for a tool
 * error, an input request (no client here to answer it) or a JSON-RPC error. Without a tool, it
 * prints the tools there are, one `name: description` line each, and exits 0.
 */
export async function runCall(
  options: LogtalkHostOptions,
  tool: string | undefined,
  args: JsonObject,
  output: DevToolOutput,
): Promise<number> {
  const host = await createLogtalkHost({ ...options, workers: 1 });
  const server = await serve(host.endpoint, {
    transport: 'http',
    host: '127.0.0.1',
    port: 0,
    quiet: true,
  });
  try {
    if (tool === undefined) return await listTools(server.url, output);
    const answer = await post(server.url, 'tools/call', { name: tool, arguments: args }, tool);
    const result = answer.result as JsonObject | undefined;
    // The envelope (resultType, the serverInfo _meta) says nothing about the tool.
    const { _meta: _envelope, resultType: _type, ...shown } = result ?? {};
    output.out(JSON.stringify(result ? shown : answer.error, null, 2));
    if (answer.error) return 1;
    if (result?.resultType === 'input_required') {
      output.err('the tool asks the client for input; call it from an MCP client to answer');
      return 1;
    }
    return result?.isError === true ? 1 : 0;
  } finally {
    await server.close();
    await host.endpoint.close();
  }
}

async function listTools(url: string, output: DevToolOutput): Promise<number> {
  const answer = await post(url, 'tools/list', {});
  const tools = ((answer.result as JsonObject | undefined)?.tools ?? []) as JsonObject[];
  if (tools.length === 0) output.err('the provider offers no tools');
  for (const tool of tools)
    output.out(
      typeof tool.description === 'string'
        ? `${String(tool.name)}: ${tool.description}`
        : String(tool.name),
    );
  output.err("call one with: rondo-logtalk call FILE TOOL '{json arguments}'");
  return answer.error ? 1 : 0;
}

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};

async function post(
  url: string,
  method: string,
  params: JsonObject,
  name?: string,
): Promise<JsonObject> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...(name !== undefined ? { 'mcp-name': name } : {}),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: META } }),
  });
  const body = await response.text();
  if (!(response.headers.get('content-type') ?? '').includes('text/event-stream'))
    return JSON.parse(body) as JsonObject;
  // An SSE answer: the last event that carries the call's id is its answer.
  const messages = body
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => JSON.parse(line.slice(5)) as JsonObject);
  return messages.filter((m) => m.id === 1).at(-1) ?? { error: { message: 'no answer' } };
}

/**
 * `file:line:column: message` (the column for a syntax error), without the location Prolog
 * itself may have put before the message.
 */
export function loadErrorText(failure: PrologLoadError): string {
  const detail = failure.detail.startsWith(`${failure.file}:`)
    ? failure.detail.slice(failure.file.length).replace(/^(:\d+)+:\s*/, '')
    : failure.detail;
  return new PrologLoadError(failure.file, failure.line, detail, failure.column).message;
}
