import { createPrologProvider, PrologCallError, PrologLoadError } from '@rondo/logtalk-bridge';
import { serve } from '@rondo/server';
import { createLogtalkHost, type LogtalkHostOptions } from './host.js';

type JsonObject = Record<string, unknown>;

/** Where `check` and `call` write: their report on `out`, diagnostics on `err`. */
export interface DevToolOutput {
  out(line: string): void;
  err(line: string): void;
}

/**
 * `rondo-logtalk check FILE...`: loads the files in one worker and reports what is wrong with
 * the provider without serving it, one `file:line: message` per problem. Exit code 0 when
 * nothing is wrong, 1 otherwise (a load error included).
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
    provider = await createPrologProvider({ ...bridge, workers: 1, inspectOnly: true });
  } catch (failure) {
    if (failure instanceof PrologLoadError) {
      output.out(loadErrorText(failure));
      return 1;
    }
    if (failure instanceof PrologCallError) {
      output.out(`${options.files[0]}: ${failure.message}`);
      return 1;
    }
    throw failure;
  }
  try {
    const problems = await provider.problems();
    for (const p of problems)
      output.out(`${p.file ?? options.files[0]}${p.line ? `:${p.line}` : ''}: ${p.message}`);
    output.err(
      problems.length === 0
        ? `${provider.name}: no problems found`
        : `${provider.name}: ${problems.length} problem${problems.length === 1 ? '' : 's'}`,
    );
    return problems.length === 0 ? 0 : 1;
  } finally {
    await provider.close();
  }
}

/**
 * `rondo-logtalk call FILE TOOL '{json}'`: serves the provider on a private loopback HTTP port,
 * calls one tool as a 2026-07-28 client would (so schemas, validation and result shaping are
 * the server's own), prints the result as JSON and stops. Exit code 0 for a result, 1 for a tool
 * error, an input request (no client here to answer it) or a JSON-RPC error.
 */
export async function runCall(
  options: LogtalkHostOptions,
  tool: string,
  args: JsonObject,
  output: DevToolOutput,
): Promise<number> {
  const host = await createLogtalkHost({ ...options, workers: 1 });
  const server = await serve(host.endpoint, { transport: 'http', host: '127.0.0.1', port: 0 });
  try {
    const answer = await postCall(server.url, tool, args);
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

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};

async function postCall(url: string, tool: string, args: JsonObject): Promise<JsonObject> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': tool,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: tool, arguments: args, _meta: META },
    }),
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

/** `file:line: message`, without the location Prolog itself may have put before the message. */
export function loadErrorText(failure: PrologLoadError): string {
  const where = failure.line === undefined ? failure.file : `${failure.file}:${failure.line}`;
  const detail = failure.detail.startsWith(`${failure.file}:`)
    ? failure.detail.slice(failure.file.length).replace(/^(:\d+)+:\s*/, '')
    : failure.detail;
  return `${where}: ${detail}`;
}
