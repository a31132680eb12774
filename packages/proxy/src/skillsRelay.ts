import { SKILLS_EXTENSION, type Skill } from '@rondo/client';
import { extensionMethod, type Extension, type ExtensionCall, type Provider } from '@rondo/core';
import { paginate } from '@rondo/core/internal';
import { ErrorCode, McpError, type JsonObject } from '@rondo/protocol';
import { z } from 'zod';
import { ProxyProvider } from './proxyProvider.js';
import type { SkillRequest } from './upstreamSkills.js';

const ListSkillsParams = z.looseObject({ cursor: z.string().optional() });
const GetSkillParams = z.looseObject({ uri: z.string() });
const DirectoryReadParams = z.looseObject({ uri: z.string(), cursor: z.string().optional() });

const ERAS = ['legacy', 'modern'] as const;

/**
 * The Skills extension (`io.modelcontextprotocol/skills`) of a server whose providers include
 * proxies, for `server.use(...)`: `skills/list` gives the skills of every upstream that serves
 * the extension, as each proxy last read them (in `providers()` order; a skill an earlier upstream
 * lists under the same URI hides a later one's), and `skills/get` and `resources/directory/read`
 * go to the upstream whose listed skill the URI lies under, and to no other. The extension is
 * announced while a connected upstream declares it (with `directoryRead` when one does), and the
 * skills' files are read through the proxies like their other resources.
 */
export function relaySkills(providers: () => Iterable<Provider>): Extension {
  const proxies = (): ProxyProvider[] =>
    [...providers()].filter((provider) => provider instanceof ProxyProvider);
  const owner = (uri: string): ProxyProvider => {
    const found = proxies().find((proxy) => proxy.skills.owns(uri));
    if (found) return found;
    throw new McpError(ErrorCode.InvalidParams, `Unknown skill: ${uri}`, { uri });
  };
  const relayed = async (method: SkillRequest, params: JsonObject, call: ExtensionCall) => {
    const uri = params.uri as string;
    const proxy = owner(uri);
    if (method === 'resources/directory/read' && !proxy.skills.declared?.directoryRead)
      throw new McpError(ErrorCode.InvalidParams, `Directory not found: ${uri}`, { uri });
    return proxy.skills.request(method, params, call.signal);
  };
  return {
    id: SKILLS_EXTENSION,
    settings: (): JsonObject | undefined => {
      const declared = proxies().map((proxy) => proxy.skills.declared);
      if (declared.every((settings) => settings === undefined)) return undefined;
      return declared.some((settings) => settings?.directoryRead) ? { directoryRead: true } : {};
    },
    methods: {
      'skills/list': extensionMethod({
        params: ListSkillsParams,
        eras: ERAS,
        handle: async (params, call, runtime) => {
          const page = paginate(mergedSkills(proxies()), params.cursor, runtime.pageSize);
          const result: JsonObject = { skills: page.items as unknown as JsonObject[] };
          if (page.nextCursor !== undefined) result.nextCursor = page.nextCursor;
          return cacheable(result, call);
        },
      }),
      'skills/get': extensionMethod({
        params: GetSkillParams,
        eras: ERAS,
        handle: async (params, call) => {
          const { skill } = await relayed('skills/get', { uri: params.uri }, call);
          return cacheable({ skill: skill ?? null }, call);
        },
      }),
      'resources/directory/read': extensionMethod({
        params: DirectoryReadParams,
        eras: ERAS,
        handle: async (params, call) => {
          const asked: JsonObject = { uri: params.uri };
          if (params.cursor !== undefined) asked.cursor = params.cursor;
          const { resources, nextCursor } = await relayed('resources/directory/read', asked, call);
          const result: JsonObject = { resources: resources ?? [] };
          if (typeof nextCursor === 'string') result.nextCursor = nextCursor;
          return cacheable(result, call);
        },
      }),
    },
  };
}

/** Every upstream's listed skills, the first of each URI kept. */
function mergedSkills(proxies: readonly ProxyProvider[]): Skill[] {
  const seen = new Set<string>();
  const merged: Skill[] = [];
  for (const proxy of proxies) {
    for (const skill of proxy.skills.listed) {
      if (seen.has(skill.uri)) continue;
      seen.add(skill.uri);
      merged.push(skill);
    }
  }
  return merged;
}

/**
 * A result as the modern wire caches it: never shared between callers, and read afresh each time
 * (an upstream's skills may change, and what it allows may depend on who asks).
 */
function cacheable(result: JsonObject, call: ExtensionCall): JsonObject {
  return call.era === 'modern' ? { ...result, ttlMs: 0, cacheScope: 'private' } : result;
}
