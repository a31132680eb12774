import { extensionSettings, type WireResult, type ServerRuntime } from '@rondo/core/internal';
import {
  ErrorCode,
  McpError,
  type InitializeRequestParams,
  type JsonObject,
} from '@rondo/protocol';
import type { ServedLegacyRevision } from './options.js';
import { serverInfoFor } from './revisionShape.js';
import type { SessionState } from './sessionState.js';

/** The client's version when the adapter offers it, otherwise the newest offered revision. */
export function chooseRevision(
  requested: string,
  offered: readonly ServedLegacyRevision[],
): ServedLegacyRevision {
  return offered.find((revision) => revision === requested) ?? offered[0]!;
}

/** Capability objects by what the providers offer: every session of a server shares one. */
const CAPABILITY_SETS = new Map<string, JsonObject>();

/**
 * The capabilities the providers imply: tools, prompts and resources when offered (with
 * `listChanged` / `subscribe` when providers announce changes), completions when a provider completes,
 * and logging always, since every handler may log. Frozen and shared: each session keeps its own
 * reference, so thousands of sessions hold one object.
 */
export function serverCapabilities(runtime: ServerRuntime): JsonObject {
  const offered = runtime.capabilities();
  const extensions = extensionSettings(runtime.extensions, 'legacy', runtime);
  const key = [
    JSON.stringify(extensions),
    offered.completions,
    offered.prompts,
    offered.resources,
    offered.subscribe,
    offered.tools,
    offered.listChanged,
  ].join();
  const known = CAPABILITY_SETS.get(key);
  if (known) return known;
  const listChanged: JsonObject = offered.listChanged ? { listChanged: true } : {};
  const capabilities: JsonObject = { logging: {} };
  if (offered.completions) capabilities.completions = {};
  if (offered.prompts) capabilities.prompts = { ...listChanged };
  if (offered.resources)
    capabilities.resources = { ...(offered.subscribe ? { subscribe: true } : {}), ...listChanged };
  if (offered.tools) capabilities.tools = { ...listChanged };
  if (Object.keys(extensions).length > 0) capabilities.extensions = extensions;
  for (const value of Object.values(capabilities)) Object.freeze(value);
  CAPABILITY_SETS.set(key, Object.freeze(capabilities));
  return capabilities;
}

/**
 * Answers `initialize` (its params already validated): negotiates the revision, records the
 * client's capabilities and identity, and describes the server as the negotiated revision allows.
 * A second `initialize` is refused (-32600).
 */
export function initialize(state: SessionState, params: InitializeRequestParams): WireResult {
  if (state.negotiated)
    throw new McpError(
      ErrorCode.InvalidRequest,
      'Invalid Request: the session is already initialized',
    );
  const { protocolVersion, capabilities, clientInfo } = params;
  const revision = chooseRevision(protocolVersion, state.options.revisions);
  const serverCapabilitySet = serverCapabilities(state.runtime);
  state.negotiated = {
    revision,
    clientCapabilities: capabilities as JsonObject,
    serverCapabilities: serverCapabilitySet,
    clientInfo: { name: clientInfo.name, version: clientInfo.version },
  };
  const result: WireResult = {
    protocolVersion: revision,
    capabilities: serverCapabilitySet,
    serverInfo: serverInfoFor(state.runtime.info, revision),
  };
  if (state.runtime.info.instructions !== undefined)
    result.instructions = state.runtime.info.instructions;
  return result;
}
