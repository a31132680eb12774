import {
  ErrorCode,
  McpError,
  promptResultToWire,
  resourceResultToWire,
  toolResultToWire,
  type JsonObject,
  type PromptResult,
  type ResourceResult,
  type ToolResult,
} from '@rondo/protocol';
import { checkParamHeaders } from './headerRules.js';
import { invalidParams, optionalObject, requireString } from './params.js';
import type { ModernRequest } from './request.js';
import { driveRound, type RoundMethod } from './rounds.js';
import { NOT_CACHEABLE, withCachePolicy, type WireResult } from './serverView.js';

/** The three methods that may answer `input_required`: tools/call, prompts/get and resources/read. */

interface NamedCall extends JsonObject {
  name: string;
  arguments: JsonObject;
}

interface ResourceCall extends JsonObject {
  uri: string;
}

const toolRounds: RoundMethod<ToolResult, NamedCall> = {
  method: 'tools/call',
  invoke: (request, call) => request.server.callTool(call.name, call.arguments, request),
  complete: (result) => toolResultToWire(result),
};

const promptRounds: RoundMethod<PromptResult, NamedCall> = {
  method: 'prompts/get',
  invoke: (request, call) =>
    request.server.getPrompt(call.name, call.arguments as Record<string, string>, request),
  complete: (result) => promptResultToWire(result),
};

const resourceRounds: RoundMethod<ResourceResult, ResourceCall> = {
  method: 'resources/read',
  invoke: async (request, call) => {
    const outcome = await request.server.readResource(call.uri, request);
    if (outcome === undefined) {
      throw new McpError(ErrorCode.InvalidParams, `Resource not found: ${call.uri}`, {
        uri: call.uri,
      });
    }
    return outcome;
  },
  complete: (result, call, request, retried) =>
    withCachePolicy(
      resourceResultToWire(result),
      retried ? NOT_CACHEABLE : request.server.cachePolicyFor('resources/read', call.uri),
    ),
};

/** `tools/call`: an unknown tool is -32602; the `Mcp-Param-*` headers must mirror the arguments. */
export async function callTool(request: ModernRequest): Promise<WireResult> {
  const name = requireString(request.params, 'name');
  const args = request.params.arguments;
  if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args))) {
    throw invalidParams('arguments must be an object');
  }
  const headers = request.exchange.headers;
  if (headers !== undefined) {
    const tool = request.server.catalog.tool(name);
    if (tool !== undefined) checkParamHeaders(headers, tool.definition, args);
  }
  return driveRound(request, toolRounds, { name, arguments: (args ?? {}) as JsonObject });
}

/** `prompts/get`: prompt arguments are strings by name. */
export async function getPrompt(request: ModernRequest): Promise<WireResult> {
  const name = requireString(request.params, 'name');
  const args = optionalObject(request.params, 'arguments') ?? {};
  for (const key of Object.keys(args)) {
    if (typeof args[key] !== 'string') throw invalidParams(`arguments.${key} must be a string`);
  }
  return driveRound(request, promptRounds, { name, arguments: args as JsonObject });
}

/** `resources/read`: a resource nobody has is -32602 with `data.uri`. */
export async function readResource(request: ModernRequest): Promise<WireResult> {
  const uri = requireString(request.params, 'uri');
  return driveRound(request, resourceRounds, { uri });
}
