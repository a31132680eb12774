import type { Json, JsonObject, ToolResult } from '@rondo/protocol';
import type { Catalog, ToolEntry } from '../catalog.js';
import type { HandlerContext } from '../contracts/context.js';
import type { Arguments, Principal, ToolDefinition } from '../contracts/definitions.js';
import type { Provider, ToolOutcome } from '../contracts/provider.js';
import { isVisible } from '../visibility.js';
import { ToolSearchIndex } from './searchIndex.js';

/** Tool search on a server: what stays listed beside the meta-tools, and how many results. */
export interface ToolSearchOptions {
  /** Tools listed as usual beside the meta-tools (by the name the server offers them under). */
  pinned?: readonly string[];
  /** Put in front of the meta-tools' names (`github_` gives `github_search_tools`). */
  prefix?: string;
  /** Results of one search at most (default 5, at most 50). */
  maxResults?: number;
}

/** The most results one search may ask for, and the most schemas one request may fetch. */
export const TOOL_SEARCH_LIMIT = 50;
/** Longest description a search result carries (the schemas request gives it whole). */
const DESCRIPTION_CUT = 300;

/** What the search provider reads and calls: the server's catalog and its tool operation. */
export interface SearchedServer {
  catalog(): Catalog;
  callTool(name: string, args: unknown, ctx: HandlerContext): Promise<ToolOutcome>;
}

/**
 * The meta-tools of tool search: `search_tools` ranks the tools a caller may see and call (its
 * visibility rules and scopes hold) by BM25 over names, titles, argument names and descriptions;
 * `get_tool_schemas` gives chosen tools' full descriptors; `call_tool` calls one by name. Every
 * tool also stays callable directly under its own name.
 */
export class ToolSearchProvider implements Provider {
  readonly name = 'tool search';
  private readonly indexes = new WeakMap<Catalog, ToolSearchIndex>();
  private readonly maxResults: number;
  private readonly names: { search: string; schemas: string; call: string };

  constructor(
    private readonly server: SearchedServer,
    options: ToolSearchOptions = {},
  ) {
    const prefix = options.prefix ?? '';
    this.names = {
      search: `${prefix}search_tools`,
      schemas: `${prefix}get_tool_schemas`,
      call: `${prefix}call_tool`,
    };
    this.maxResults = Math.min(Math.max(1, options.maxResults ?? 5), TOOL_SEARCH_LIMIT);
  }

  tools(): ToolDefinition[] {
    return [
      {
        name: this.names.search,
        description:
          'Search the tools of this server by what they do. Give a natural-language query; get the best matching tools (name and description). Then fetch their schemas with ' +
          `${this.names.schemas} and call them by name (or with ${this.names.call}).`,
        inputSchema: {
          type: 'object',
          properties: {
            query: {
              type: 'string',
              minLength: 1,
              maxLength: 1000,
              description: 'What the tool should do',
            },
            limit: {
              type: 'integer',
              minimum: 1,
              maximum: TOOL_SEARCH_LIMIT,
              description: `Results at most (default ${this.maxResults})`,
            },
          },
          required: ['query'],
        },
        annotations: { readOnlyHint: true },
      },
      {
        name: this.names.schemas,
        description: 'The full descriptors (input and output schemas) of the tools named.',
        inputSchema: {
          type: 'object',
          properties: {
            names: {
              type: 'array',
              items: { type: 'string' },
              minItems: 1,
              maxItems: TOOL_SEARCH_LIMIT,
            },
          },
          required: ['names'],
        },
        annotations: { readOnlyHint: true },
      },
      {
        name: this.names.call,
        description: 'Call a tool of this server by name with its arguments.',
        inputSchema: {
          type: 'object',
          properties: { name: { type: 'string', minLength: 1 }, arguments: { type: 'object' } },
          required: ['name'],
        },
      },
    ];
  }

  async callTool(name: string, args: Arguments, ctx: HandlerContext): Promise<ToolOutcome> {
    const catalog = this.server.catalog();
    if (name === this.names.search)
      return this.search(
        catalog,
        args.query as string,
        (args.limit as number | undefined) ?? this.maxResults,
        ctx.principal,
      );
    if (name === this.names.schemas)
      return this.schemas(catalog, args.names as string[], ctx.principal);
    const target = args.name as string;
    const entry = catalog.tool(target);
    // A tool the caller sees but lacks a scope for is called, so the refusal names the scopes.
    if (entry === undefined || entry.provider === this || !isVisible(entry.visible, ctx.principal))
      return {
        kind: 'error',
        text: `Unknown tool: ${target} (find tools with ${this.names.search})`,
      };
    return this.server.callTool(target, args.arguments ?? {}, ctx);
  }

  /** The best `limit` tools for `query` among those the caller may see and call. */
  private search(
    catalog: Catalog,
    query: string,
    limit: number,
    principal: Principal | undefined,
  ): ToolResult {
    const found: JsonObject[] = [];
    for (const { name } of this.indexOf(catalog).rank(query)) {
      if (found.length >= limit) break;
      const entry = catalog.tool(name);
      if (entry === undefined || !offeredTo(entry, principal)) continue;
      const { title, description } = entry.definition;
      found.push({
        name,
        ...(title !== undefined ? { title } : {}),
        ...(description !== undefined ? { description: cut(description) } : {}),
      });
    }
    return structured({ tools: found });
  }

  /** The descriptors of the named tools the caller may see and call; the others as unknown. */
  private schemas(
    catalog: Catalog,
    names: readonly string[],
    principal: Principal | undefined,
  ): ToolResult {
    const tools: Json[] = [];
    const unknown: string[] = [];
    for (const name of names) {
      const entry = catalog.tool(name);
      if (entry === undefined || entry.provider === this || !offeredTo(entry, principal))
        unknown.push(name);
      else tools.push(entry.definition as unknown as Json);
    }
    return structured({ tools, ...(unknown.length > 0 ? { unknown } : {}) });
  }

  /** The index of a catalog's tools (the meta-tools aside), built once per catalog. */
  private indexOf(catalog: Catalog): ToolSearchIndex {
    let index = this.indexes.get(catalog);
    if (index === undefined) {
      const searched = catalog.callableTools.filter((entry) => entry.provider !== this);
      index = new ToolSearchIndex(searched.map((entry) => entry.definition));
      this.indexes.set(catalog, index);
    }
    return index;
  }
}

/** True when the caller may see the tool and holds every scope a call of it needs. */
function offeredTo(entry: ToolEntry, principal: Principal | undefined): boolean {
  if (!isVisible(entry.visible, principal)) return false;
  const held = principal?.scopes ?? [];
  return (entry.scopes ?? []).every((scope) => held.includes(scope));
}

function cut(text: string): string {
  return text.length <= DESCRIPTION_CUT ? text : `${text.slice(0, DESCRIPTION_CUT - 1)}…`;
}

function structured(value: JsonObject): ToolResult {
  return {
    kind: 'structured',
    structured: value,
    items: [{ kind: 'text', text: JSON.stringify(value) }],
  };
}
