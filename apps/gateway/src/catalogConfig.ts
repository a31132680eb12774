import { readFileSync } from 'node:fs';
import {
  checkToolTransform,
  ToolTransformError,
  type CatalogOptions,
  type ToolSearchOptions,
  type ToolTransform,
} from '@rondo/core';
import { z } from 'zod';
import type { GatewayEntry } from './config.js';
import { ConfigError } from './configError.js';

/**
 * The catalog keys of a gateway configuration: `"toolSearch"` beside `mcpServers` (tool search
 * over the whole gateway), and on each entry `"toolSearch"` (search over that entry alone) and
 * `"tools"` (tools derived from the entry's, by the name the entry offers them under, before
 * its namespace).
 */

const json: z.ZodType<unknown> = z.json();
const argumentTransform = z.strictObject({
  name: z.string().min(1).optional(),
  description: z.string().optional(),
  hidden: z.boolean().optional(),
  value: json.optional(),
  default: json.optional(),
  schema: z.record(z.string(), json).optional(),
});
const toolTransform = z.strictObject({
  name: z.string().min(1).optional(),
  title: z.string().optional(),
  description: z.string().optional(),
  arguments: z.record(z.string(), argumentTransform).optional(),
  output: z.strictObject({ pick: z.array(z.string().min(1)).min(1) }).optional(),
  scopes: z.array(z.string().min(1)).optional(),
  keepOriginal: z.boolean().optional(),
});
const toolSearch = z.union([
  z.boolean(),
  z.strictObject({
    pinned: z.array(z.string().min(1)).optional(),
    maxResults: z.number().int().min(1).max(50).optional(),
  }),
]);
const entryKeys = z.looseObject({
  tools: z.record(z.string().min(1), toolTransform).optional(),
  toolSearch: toolSearch.optional(),
});
const fileKeys = z.looseObject({ toolSearch: toolSearch.optional() });

/** What the gateway's catalog is, from its configuration. */
export interface GatewayCatalog {
  /** The gateway server's catalog options: the derived tools of every entry, gateway-wide search. */
  readonly options: CatalogOptions;
  /** Entries searched on their own, by key, with their search options (names offered by the gateway). */
  readonly entrySearch: ReadonlyMap<string, ToolSearchOptions>;
}

/** The catalog keys of a configuration file (see {@link parseGatewayCatalog}). */
export function readGatewayCatalog(path: string, entries: readonly GatewayEntry[]): GatewayCatalog {
  return parseGatewayCatalog(readFileSync(path, 'utf8'), path, entries);
}

/**
 * Reads the catalog keys of a configuration text whose entries `parseConfig` read. A transform
 * that is wrong whatever the tool (a hidden argument without a value, a narrowed schema that is
 * not JSON Schema) is a {@link ConfigError} naming the entry and the tool.
 */
export function parseGatewayCatalog(
  text: string,
  source: string,
  entries: readonly GatewayEntry[],
): GatewayCatalog {
  const file = fileKeys.safeParse(JSON.parse(text));
  if (!file.success) throw new ConfigError(`${source}: ${problem(file.error)}`);
  const tools: Record<string, ToolTransform> = {};
  const entrySearch = new Map<string, ToolSearchOptions>();
  for (const entry of entries) {
    const where = `${source}: mcpServers.${entry.key}`;
    const keys = entryKeys.safeParse(entry);
    if (!keys.success) throw new ConfigError(`${where}: ${problem(keys.error)}`);
    const offered = (name: string) =>
      entry.namespace === '' ? name : `${entry.namespace}_${name}`;
    for (const [name, spec] of Object.entries(keys.data.tools ?? {})) {
      const transform = {
        ...spec,
        ...(spec.name ? { name: offered(spec.name) } : {}),
      } as ToolTransform;
      try {
        checkToolTransform(offered(name), transform);
      } catch (failure) {
        if (failure instanceof ToolTransformError)
          throw new ConfigError(`${where}.tools.${name}: ${failure.message}`);
        throw failure;
      }
      tools[offered(name)] = transform;
    }
    const search = searchOptions(keys.data.toolSearch, offered);
    if (search) entrySearch.set(entry.key, { ...search, prefix: offered('') });
  }
  const gatewaySearch = searchOptions(file.data.toolSearch, (name) => name);
  return {
    options: { tools, ...(gatewaySearch ? { toolSearch: gatewaySearch } : {}) },
    entrySearch,
  };
}

function searchOptions(
  value: z.infer<typeof toolSearch> | undefined,
  offered: (name: string) => string,
): ToolSearchOptions | undefined {
  if (value === undefined || value === false) return undefined;
  if (value === true) return {};
  return {
    ...(value.pinned ? { pinned: value.pinned.map(offered) } : {}),
    ...(value.maxResults !== undefined ? { maxResults: value.maxResults } : {}),
  };
}

function problem(error: z.ZodError): string {
  const first = error.issues[0];
  if (!first) return 'invalid';
  const where = first.path.length > 0 ? `${first.path.join('.')}: ` : '';
  return `${where}${first.message}`;
}
