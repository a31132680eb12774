import { ECHO_ARGUMENTS } from '../wire.js';
import {
  confirmForm,
  textObjectSchema,
  echoResult,
  fillerDescription,
  fillerToolNames,
} from './catalog.js';

/** What a bare server answers: the echo, a tools/list of N tools, or an MRTR round. */
export type FixedKind = 'echo' | 'list' | 'mrtr';

/**
 * The result a bare contender (the node:http ceiling, bare Hono, bare `Bun.serve`) answers every
 * request with, as large as Rondo's real answer of the same scenario.
 */
export function fixedResult(kind: string, tools: number): Record<string, unknown> {
  switch (kind) {
    case 'list':
      return {
        resultType: 'complete',
        tools: fillerToolNames(tools).map((name) => ({
          name,
          description: fillerDescription(name),
          inputSchema: textObjectSchema(),
        })),
      };
    case 'mrtr':
      return {
        resultType: 'input_required',
        inputRequests: {
          q1: {
            method: 'elicitation/create',
            params: { mode: 'form', message: 'Go on?', requestedSchema: confirmForm() },
          },
        },
        requestState: 'ceiling-state',
      };
    default:
      return echoAnswer(ECHO_ARGUMENTS.text);
  }
}

/** The echo tool's answer to `text`, with the resultType and serverInfo Rondo's carries. */
export function echoAnswer(text: string): Record<string, unknown> {
  return {
    ...echoResult(text),
    resultType: 'complete',
    _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'ceiling', version: '1.0.0' } },
  };
}

/** The whole JSON-RPC response body a bare HTTP contender sends, serialised once. */
export function fixedAnswer(kind: string, tools: number): string {
  return JSON.stringify({ jsonrpc: '2.0', id: 1, result: fixedResult(kind, tools) });
}
