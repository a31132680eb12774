import type { JsonObject } from './jsonRpc.js';
import type { CallOptions, McpClient } from './mcpClient.js';

/** The answers to one round's input requests, by the keys the server chose. */
export type InputResponses = Record<string, JsonObject>;

/** Asks the user (or anyone) for the answers to a round's input requests. */
export type AnswerInputRequests = (
  inputRequests: Record<string, JsonObject>,
  round: number,
) => Promise<InputResponses>;

/** More rounds than any sane server needs; stops a misbehaving one from looping forever. */
const ROUND_LIMIT = 25;

/**
 * Drives a multi round-trip request (MRTR): while the server answers `input_required`, get the
 * answers and retry with a new id, the same params, `inputResponses`, and `requestState` echoed
 * exactly (and only when the server sent one).
 */
export async function callWithRounds(
  client: McpClient,
  method: 'tools/call' | 'prompts/get' | 'resources/read',
  params: JsonObject,
  answer: AnswerInputRequests,
  options: CallOptions = {},
): Promise<JsonObject> {
  let retry: JsonObject = {};
  for (let round = 1; round <= ROUND_LIMIT; round += 1) {
    const result = await client.call(method, { ...params, ...retry }, options);
    if (result.resultType !== 'input_required') return result;
    const inputRequests = (result.inputRequests as Record<string, JsonObject> | undefined) ?? {};
    const inputResponses = await answer(inputRequests, round);
    retry = { inputResponses };
    if (result.requestState !== undefined) retry.requestState = result.requestState;
  }
  throw new Error(`gave up after ${ROUND_LIMIT} rounds of input_required`);
}
