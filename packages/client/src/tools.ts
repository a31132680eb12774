import { isPlainObject, type JsonObject } from '@rondo/protocol';
import { compileJsonSchema, describeAjvError, type CompiledSchema } from '@rondo/core/internal';
import { ProtocolViolationError } from './errors.js';
import { headerParamsOf, type HeaderParam } from './http/toolHeaders.js';

/** What the client keeps about a listed tool: its header declarations and its output validator. */
interface KnownTool {
  readonly headers: readonly HeaderParam[];
  readonly outputSchema: JsonObject | undefined;
  validator?: CompiledSchema | null;
}

/** Tools kept at most: a server listing more is still served, the oldest entries are forgotten. */
const MAX_KNOWN_TOOLS = 10_000;

/**
 * The tools the client has seen in `tools/list`: which to leave out (an invalid `x-mcp-header`
 * declaration means no request to the tool could carry its headers), the `Mcp-Param-*` headers of
 * each, and the `outputSchema` a result's `structuredContent` must fit.
 */
export class ToolCatalog {
  private readonly tools = new Map<string, KnownTool>();

  /** Learns a page of tools; returns the ones a caller may use. */
  learn(listed: readonly unknown[]): Record<string, unknown>[] {
    const usable: Record<string, unknown>[] = [];
    for (const tool of listed) {
      if (!isPlainObject(tool) || typeof tool.name !== 'string') continue;
      const declared = headerParamsOf(tool.inputSchema);
      if (!declared.ok) {
        this.tools.delete(tool.name);
        continue;
      }
      if (this.tools.size >= MAX_KNOWN_TOOLS) {
        const oldest = this.tools.keys().next().value;
        if (oldest !== undefined) this.tools.delete(oldest);
      }
      const outputSchema = isPlainObject(tool.outputSchema)
        ? (tool.outputSchema as JsonObject)
        : undefined;
      this.tools.set(tool.name, { headers: declared.params, outputSchema });
      usable.push(tool);
    }
    return usable;
  }

  /** The `x-mcp-header` declarations of a tool, if it was listed. */
  headersOf(name: string): readonly HeaderParam[] {
    return this.tools.get(name)?.headers ?? [];
  }

  /**
   * Checks a result's `structuredContent` against the tool's `outputSchema`: a tool that declares
   * one must send structured content that fits it (unless the result is an error).
   */
  checkOutput(name: string, result: Record<string, unknown>): void {
    const tool = this.tools.get(name);
    if (!tool?.outputSchema || result.isError === true) return;
    if (tool.validator === undefined) {
      try {
        tool.validator = compileJsonSchema(tool.outputSchema);
      } catch {
        // A schema the validator cannot compile cannot be enforced; the result passes as sent.
        tool.validator = null;
      }
    }
    if (tool.validator === null) return;
    if (!('structuredContent' in result)) {
      throw new ProtocolViolationError(
        `tool ${name} declares an outputSchema but sent no structuredContent`,
      );
    }
    if (!tool.validator(result.structuredContent)) {
      throw new ProtocolViolationError(
        `tool ${name} sent structuredContent that does not fit its outputSchema: ${describeAjvError(tool.validator.errors?.[0])}`,
      );
    }
  }
}
