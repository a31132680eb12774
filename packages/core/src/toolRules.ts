import type { JsonObject } from '@rondo/protocol';
import { ConfigurationError } from './errors.js';

/**
 * The rules a tool's descriptor must keep so that clients accept the whole `tools/list`: the
 * official clients reject every tool of a list when one breaks them, so a bad tool is refused
 * where it is registered instead.
 */

/** Tool names as the 2025-11-25 and 2026-07-28 revisions define them. */
const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/** The rule a tool name is held to, in words (the spec's, 2025-11-25 on). */
export const TOOL_NAME_RULE =
  'a tool name is 1 to 128 characters, each an ASCII letter, a digit, "_", "-" or "."';

/** Which rule of a tool's descriptor was broken. */
export type ToolRule = 'name' | 'inputSchema' | 'outputSchema';

/** A tool was registered with a descriptor clients would reject; names the tool and the rule. */
export class ToolDefinitionError extends ConfigurationError {
  override readonly code: string = 'core.tool-definition';
  override readonly name = 'ToolDefinitionError';
  constructor(
    /** The tool's name as registered. */
    readonly tool: string,
    /** The rule it breaks. */
    readonly rule: ToolRule,
    detail: string,
  ) {
    super(`tool ${JSON.stringify(tool)}: ${detail}`);
  }
}

/** True when `name` is a tool name as the spec allows it. */
export function isValidToolName(name: string): boolean {
  return TOOL_NAME.test(name);
}

/**
 * What an input or output schema's root has instead of `type: "object"` (`type "string"`,
 * `no "type"`), or undefined when it is an object schema as the spec requires.
 */
export function objectSchemaProblem(schema: JsonObject): string | undefined {
  if (schema.type === 'object') return undefined;
  return schema.type === undefined ? 'no "type"' : `type ${JSON.stringify(schema.type)}`;
}

/** Refuses a tool name outside the spec's characters or length. */
export function checkToolName(name: string): void {
  if (!isValidToolName(name)) throw new ToolDefinitionError(name, 'name', TOOL_NAME_RULE);
}

/** Refuses an input or output schema whose root is not `type: "object"`, as the spec requires. */
export function checkObjectSchema(
  tool: string,
  rule: 'inputSchema' | 'outputSchema',
  schema: JsonObject,
): void {
  const found = objectSchemaProblem(schema);
  if (found === undefined) return;
  const zodHint = rule === 'inputSchema' ? ' (with zod: z.object({...}))' : '';
  throw new ToolDefinitionError(
    tool,
    rule,
    `its ${rule} must be an object schema (type "object") but has ${found}${zodHint}`,
  );
}
