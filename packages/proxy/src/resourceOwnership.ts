import type { ResourceDefinition, ResourceTemplateDefinition } from '@rondo/core';
import { compileTemplate, type CompiledTemplate } from '@rondo/core/internal';
import { ErrorCode, isMcpError } from '@rondo/protocol';

/**
 * Which resource URIs an upstream owns: those its last lists gave, exactly or through one of its
 * templates. A read goes to the upstream only for a URI it owns, so no upstream ever receives a
 * URI (and what its query carries) meant for another.
 */
export class ResourceOwnership {
  private readonly listed = new Set<string>();
  private readonly compiled = new Map<string, CompiledTemplate>();

  /** The upstream's template strings, for completions. */
  get templateUris(): ReadonlySet<string> {
    return new Set(this.compiled.keys());
  }

  /** Learns the resources the upstream lists (as the gateway serves them). */
  learnResources(resources: readonly ResourceDefinition[]): void {
    this.listed.clear();
    for (const resource of resources) this.listed.add(resource.uri);
  }

  /** Learns the templates the upstream lists (each already known to compile). */
  learnTemplates(templates: readonly ResourceTemplateDefinition[]): void {
    this.compiled.clear();
    for (const template of templates) {
      this.compiled.set(template.uriTemplate, compileTemplate(template.uriTemplate));
    }
  }

  /** True when the upstream listed `uri` as one of its resources. */
  lists(uri: string): boolean {
    return this.listed.has(uri);
  }

  /** True when the upstream listed `uri` or one of its templates matches it. */
  owns(uri: string): boolean {
    if (this.listed.has(uri)) return true;
    for (const template of this.compiled.values()) if (template.match(uri)) return true;
    return false;
  }
}

/**
 * True for an upstream's answer that it has no such resource: `-32002` (the specification's code)
 * or `-32602` (what SDK and Rondo servers answer for a URI no template resolves).
 */
export function isNotFound(error: unknown): boolean {
  return (
    isMcpError(error) &&
    (error.code === ErrorCode.ResourceNotFound || error.code === ErrorCode.InvalidParams)
  );
}
