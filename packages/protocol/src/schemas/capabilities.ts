import { z } from 'zod';
import { LooseObjectSchema } from './common.js';

/**
 * Client and server capabilities, one loose shape for every revision: 2025-06-18 has plain
 * `elicitation` / `sampling` objects, 2025-11-25 adds their `form` / `url` and `context` / `tools`
 * members (and `tasks`), 2026-07-28 adds `extensions` and drops `roots.listChanged`.
 */

const settings = LooseObjectSchema.optional();
const settingsByName = z.record(z.string(), LooseObjectSchema).optional();

/** What a client supports. */
export const ClientCapabilitiesSchema = z
  .object({
    experimental: settingsByName,
    extensions: settingsByName,
    roots: z.object({ listChanged: z.boolean().optional() }).loose().optional(),
    sampling: z.object({ context: settings, tools: settings }).loose().optional(),
    elicitation: z.object({ form: settings, url: settings }).loose().optional(),
    tasks: settings,
  })
  .loose();
export type ClientCapabilities = z.infer<typeof ClientCapabilitiesSchema>;

const listChanged = z.object({ listChanged: z.boolean().optional() }).loose().optional();

/** What a server supports. */
export const ServerCapabilitiesSchema = z
  .object({
    experimental: settingsByName,
    extensions: settingsByName,
    logging: settings,
    completions: settings,
    prompts: listChanged,
    resources: z
      .object({ subscribe: z.boolean().optional(), listChanged: z.boolean().optional() })
      .loose()
      .optional(),
    tools: listChanged,
    tasks: settings,
  })
  .loose();
export type ServerCapabilities = z.infer<typeof ServerCapabilitiesSchema>;
