import type { ResourceTemplateDefinition, ToolDefinition } from '@rondo/core';
import { compileArgumentValidator, compileJsonSchema, compileTemplate } from '@rondo/core/internal';
import { isPlainObject, type JsonObject } from '@rondo/protocol';

/** JSON Schema dialects older than 2020-12 whose `$schema` the core's validator does not load. */
const OLDER_DIALECT = /^https?:\/\/json-schema\.org\/draft-0[4-7]\/schema#?$/;

/**
 * An upstream's schema as the core can compile it: a `$schema` naming draft 4 to 7 (what most
 * legacy servers emit) is left out, the keywords they share with 2020-12 being read alike.
 */
function dialectFree(schema: unknown): JsonObject | undefined {
  if (!isPlainObject(schema)) return undefined;
  if (typeof schema.$schema !== 'string' || !OLDER_DIALECT.test(schema.$schema)) {
    return schema as JsonObject;
  }
  const { $schema: _dialect, ...rest } = schema;
  return rest as JsonObject;
}

/**
 * The upstream's tools the core can serve: a tool whose schema does not compile is left out, and
 * `warn` says which and why, so one bad descriptor never fails the catalog (or the gateway).
 */
export function servableTools(
  tools: readonly ToolDefinition[],
  warn: (message: string) => void,
): ToolDefinition[] {
  const kept: ToolDefinition[] = [];
  for (const tool of tools) {
    const inputSchema = dialectFree(tool.inputSchema);
    const outputSchema =
      tool.outputSchema === undefined ? undefined : dialectFree(tool.outputSchema);
    try {
      if (!inputSchema || (tool.outputSchema !== undefined && !outputSchema)) {
        throw new Error('its schema is not a JSON object');
      }
      compileArgumentValidator(inputSchema, `tool "${tool.name}"`);
      if (outputSchema) compileJsonSchema(outputSchema);
      kept.push({ ...tool, inputSchema, ...(outputSchema ? { outputSchema } : {}) });
    } catch (failure) {
      warn(`tool "${tool.name}" left out: ${(failure as Error).message}`);
    }
  }
  return kept;
}

/** The upstream's resource templates the core can match: a template that does not parse is left out. */
export function servableTemplates(
  templates: readonly ResourceTemplateDefinition[],
  warn: (message: string) => void,
): ResourceTemplateDefinition[] {
  return templates.filter((template) => {
    try {
      compileTemplate(template.uriTemplate);
      return true;
    } catch (failure) {
      warn(`resource template "${template.uriTemplate}" left out: ${(failure as Error).message}`);
      return false;
    }
  });
}
