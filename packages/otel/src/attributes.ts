/**
 * The attribute names the spans carry: those of the OpenTelemetry semantic conventions for MCP
 * (development status) and Rondo's own, under `rondo.`, for what the conventions do not cover.
 */
export const ATTR = {
  /** The JSON-RPC method (`tools/call`). */
  methodName: 'mcp.method.name',
  /** The negotiated (legacy) or requested (modern) protocol revision. */
  protocolVersion: 'mcp.protocol.version',
  /** The `Mcp-Session-Id` of a legacy HTTP session. */
  sessionId: 'mcp.session.id',
  /** The URI of `resources/read`, `resources/subscribe`, `resources/unsubscribe`. */
  resourceUri: 'mcp.resource.uri',
  /** The JSON-RPC id of the request, as a string. */
  requestId: 'jsonrpc.request.id',
  /** The tool of `tools/call`. */
  toolName: 'gen_ai.tool.name',
  /** `execute_tool` for `tools/call`. */
  operationName: 'gen_ai.operation.name',
  /** The prompt of `prompts/get`. */
  promptName: 'gen_ai.prompt.name',
  /** The JSON-RPC error code as a string, `tool_error` for a tool result with `isError`. */
  errorType: 'error.type',
  /** The JSON-RPC error code of the answer, as a string. */
  responseStatusCode: 'rpc.response.status_code',
  /** The round of a multi-round request (MRTR retry or legacy shim round), from 1. */
  round: 'rondo.mcp.round',
  /** The era of the client's wire: `legacy` or `modern`. */
  era: 'rondo.mcp.era',
  /** How a round of `tools/call`, `prompts/get` or `resources/read` ended: `complete` or `input_required`. */
  resultType: 'rondo.mcp.result_type',
  /** A Prolog worker call: the worker operation (`tool`, `prompt`, `resource`, `complete`). */
  prologMethod: 'rondo.prolog.method',
  /** A Prolog worker call: its tool or prompt name, or resource URI. */
  prologTarget: 'rondo.prolog.target',
  /** A Prolog worker call: the id of the worker that ran it. */
  prologWorkerId: 'rondo.prolog.worker.id',
  /** A Prolog worker call: the provider's name. */
  prologProvider: 'rondo.prolog.provider',
} as const;
