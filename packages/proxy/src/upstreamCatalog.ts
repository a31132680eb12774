import type {
  PromptDefinition,
  ResourceDefinition,
  ResourceTemplateDefinition,
  ToolDefinition,
} from '@rondo/core';
import {
  DEFAULT_MAX_CATALOG_BYTES,
  readWithinBudget,
  type CatalogLimits,
  type ListPage,
} from './catalogBudget.js';
import type { CatalogClaims, ClaimKind } from './catalogClaims.js';
import { servableTemplates, servableTools } from './catalogGuard.js';
import type { LegacyTaskTools } from './legacyTasks.js';
import { NameMap, type NameRules } from './names.js';
import { SKILL_SCHEME, type ResourceOwnership } from './resourceOwnership.js';
import type { UpstreamLists } from './upstreamLists.js';
import type { UpstreamSkills } from './upstreamSkills.js';

/** What decides which of an upstream's items a proxy lists, and under which names. */
export interface CatalogSettings extends NameRules, CatalogLimits {
  readonly claims?: CatalogClaims;
}

/**
 * An upstream's four lists as a proxy serves them: read a page at a time within
 * `maxCatalogBytes`, named by the {@link NameRules}, left without what the core cannot serve (a
 * schema or template that does not compile) and what an earlier entry of the gateway holds. What it
 * learns (the names both ways, which URIs the upstream owns) is what calls are routed by.
 */
export class UpstreamCatalog {
  readonly toolNames: NameMap;
  readonly promptNames: NameMap;
  /** Which resource URIs the upstream owns, learnt from its lists. */
  readonly ownership: ResourceOwnership;
  private readonly skills: UpstreamSkills;

  constructor(
    /** The entry's name, under which it claims names in a gateway. */
    private readonly owner: string,
    /** Where the lists are read, and kept as last read while the upstream is away. */
    private readonly lists: UpstreamLists,
    private readonly settings: CatalogSettings,
    private readonly legacyTasks: LegacyTaskTools,
    private readonly warn: (message: string) => void,
    /** The ownership the upstream's skills learn into too, and those skills (read with resources). */
    owned: { readonly ownership: ResourceOwnership; readonly skills: UpstreamSkills },
  ) {
    this.ownership = owned.ownership;
    this.skills = owned.skills;
    this.toolNames = new NameMap(settings);
    this.promptNames = new NameMap(settings);
  }

  /** The upstream's tools, as shown (see the class). */
  tools(): Promise<ToolDefinition[]> {
    return this.lists.read('tools', async (client) => {
      if (!client.capabilities.tools) return this.toolNames.learn([]);
      const listed = await this.budgeted('tools', async (cursor) => {
        const page = await client.listTools(cursor);
        return { items: page.tools, nextCursor: page.nextCursor };
      });
      this.legacyTasks.learn(client.era, listed);
      const servable = servableTools(this.toolNames.learn(listed.map(toolDefinition)), this.warn);
      return this.claimed('tool', servable, (tool) => tool.name);
    });
  }

  /** The upstream's prompts, as shown. */
  prompts(): Promise<PromptDefinition[]> {
    return this.lists.read('prompts', async (client) => {
      if (!client.capabilities.prompts) return this.promptNames.learn([]);
      const listed = await this.budgeted('prompts', async (cursor) => {
        const page = await client.listPrompts(cursor);
        return { items: page.prompts, nextCursor: page.nextCursor };
      });
      const named = this.promptNames.learn(listed as PromptDefinition[]);
      return this.claimed('prompt', named, (prompt) => prompt.name);
    });
  }

  /** The upstream's resources, as shown; their URIs are the ones it owns exactly. */
  resources(): Promise<ResourceDefinition[]> {
    return this.lists.read('resources', async (client) => {
      if (!client.capabilities.resources) {
        await this.skills.read(client);
        return [];
      }
      const list = await this.budgeted('resources', async (cursor) => {
        const page = await client.listResources(cursor);
        return { items: page.resources, nextCursor: page.nextCursor };
      });
      const kept = this.claimed('resource', list as ResourceDefinition[], (item) => item.uri);
      this.ownership.learnResources(kept);
      // A skill's SKILL.md is one of the resources: its entry is read with them.
      await this.skills.read(client);
      return kept;
    });
  }

  /** The upstream's resource templates, as shown; the URIs they match are the ones it owns. */
  resourceTemplates(): Promise<ResourceTemplateDefinition[]> {
    return this.lists.read('templates', async (client) => {
      if (!client.capabilities.resources) return [];
      const list = await this.budgeted('resource templates', async (cursor) => {
        const page = await client.listResourceTemplates(cursor);
        return { items: page.resourceTemplates, nextCursor: page.nextCursor };
      });
      const servable = servableTemplates(list as ResourceTemplateDefinition[], this.warn);
      // Every skill server has the skills' template: it names no one's files (the skills do, see
      // ResourceOwnership), so it is no name to claim, and each such entry keeps it.
      const skillTemplate = (item: ResourceTemplateDefinition) =>
        client.skills.available && item.uriTemplate.startsWith(SKILL_SCHEME);
      const kept = [
        ...this.claimed(
          'template',
          servable.filter((item) => !skillTemplate(item)),
          (item) => item.uriTemplate,
        ),
        ...servable.filter(skillTemplate),
      ];
      this.ownership.learnTemplates(kept);
      return kept;
    });
  }

  /** One of the upstream's lists, cut to `maxCatalogBytes` (see {@link readWithinBudget}). */
  private budgeted<T>(
    list: string,
    fetchPage: (cursor: string | undefined) => Promise<ListPage<T>>,
  ): Promise<T[]> {
    const budget = this.settings.maxCatalogBytes ?? DEFAULT_MAX_CATALOG_BYTES;
    return readWithinBudget(list, fetchPage, budget, this.warn);
  }

  /** The items of a list no earlier entry of the gateway holds (all, outside a gateway). */
  private claimed<T>(kind: ClaimKind, items: T[], nameOf: (item: T) => string): T[] {
    const claims = this.settings.claims;
    return claims ? claims.keep(this.owner, kind, items, nameOf) : items;
  }
}

/** A tool of the upstream's list as a definition, without its task support (see `taskSupport`). */
function toolDefinition(tool: Record<string, unknown>): ToolDefinition {
  const { execution: _execution, ...rest } = tool;
  return rest as unknown as ToolDefinition;
}
