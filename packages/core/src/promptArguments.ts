import { ErrorCode, McpError } from '@rondo/protocol';
import type { PromptDefinition } from './contracts/definitions.js';

/**
 * Refuses (-32602) a `prompts/get` that leaves out a required argument. This is what lets a
 * prompt handler type its required arguments as `string` (`PromptArgsOf`).
 */
export function checkRequiredArguments(
  definition: PromptDefinition,
  args: Record<string, string>,
): void {
  for (const argument of definition.arguments ?? []) {
    if (argument.required && args[argument.name] === undefined) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `Missing required argument "${argument.name}" for prompt "${definition.name}"`,
      );
    }
  }
}
