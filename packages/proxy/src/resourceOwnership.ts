import type { ResourceDefinition, ResourceTemplateDefinition } from '@rondo/core';
import { compileTemplate, type CompiledTemplate } from '@rondo/core/internal';
import { ErrorCode, isMcpError } from '@rondo/protocol';

/** The scheme of the Skills extension's resources. */
export const SKILL_SCHEME = 'skill://';

/**
 * Which resource URIs an upstream owns: those its last lists gave, exactly or through one of its
 * templates, and the files of the skills it lists. A read goes to the upstream only for a URI it owns, so no upstream ever receives a
 * URI (and what its query carries) meant for another.
 */
export class ResourceOwnership {
  private readonly listed = new Set<string>();
  private readonly compiled = new Map<string, CompiledTemplate>();
  /** The roots (`skill://name`) of the skills the upstream lists; `undefined`: it has no skills. */
  private skillRoots: readonly string[] | undefined;

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

  /**
   * Learns the skills the upstream lists (by the URIs of their `SKILL.md`), or that it serves
   * none (`undefined`). A `skill://` URI is then the upstream's only under one of their roots:
   * every skill server has the same `skill://{skill}/{+path}` template, so the template cannot
   * say whose a skill's file is.
   */
  learnSkills(skillUris: readonly string[] | undefined): void {
    this.skillRoots = skillUris?.map((uri) => uri.replace(/\/SKILL\.md$/, ''));
  }

  /** True when `uri` is one of the listed skills' `SKILL.md` or lies under its root. */
  ownsSkillUri(uri: string): boolean {
    return (this.skillRoots ?? []).some((root) => uri === root || uri.startsWith(`${root}/`));
  }

  /** True when the upstream listed `uri` as one of its resources. */
  lists(uri: string): boolean {
    return this.listed.has(uri);
  }

  /** True when the upstream listed `uri` or one of its templates matches it. */
  owns(uri: string): boolean {
    if (this.listed.has(uri)) return true;
    if (this.skillRoots !== undefined && uri.startsWith(SKILL_SCHEME))
      return this.ownsSkillUri(uri);
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
