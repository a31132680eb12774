import { existsSync } from 'node:fs';
import {
  specDefinitions,
  specErrors,
  specSchemaPath,
  type SpecRevision,
} from '../../support/specSchemas.js';
import type { WireMessage } from './wire.js';

type Message = WireMessage;
type Definition = { properties?: { method?: { const?: unknown } } };

/** Result definitions that do not follow the `XRequest` → `XResult` naming. */
const EMPTY_RESULT_METHODS = new Set([
  'ping',
  'logging/setLevel',
  'resources/subscribe',
  'resources/unsubscribe',
]);
const ERROR_DEFS_2026: Record<number, string> = {
  [-32020]: 'HeaderMismatchError',
  [-32021]: 'MissingRequiredClientCapabilityError',
  [-32022]: 'UnsupportedProtocolVersionError',
};

/**
 * Validates what a server wrote against one revision's official JSON Schema: each result against
 * the typed result of the request it answers, each notification and server request against its
 * method's definition, each error against the error response definition.
 */
export class WireValidator {
  /** The request, notification or server request definition of each method. */
  private readonly methods = new Map<string, string>();

  private constructor(readonly revision: SpecRevision) {
    for (const [name, definition] of Object.entries(specDefinitions(revision))) {
      const method = (definition as Definition).properties?.method?.const;
      if (typeof method === 'string' && !this.methods.has(method)) this.methods.set(method, name);
    }
  }

  /** The validator of a revision, or undefined (with a printed reason) when the spec folder is absent. */
  static load(revision: SpecRevision): WireValidator | undefined {
    const file = specSchemaPath(revision);
    if (!existsSync(file)) {
      console.warn(`skipping ${revision} wire validation: ${file} not found (set RONDO_SPEC_DIR)`);
      return undefined;
    }
    return new WireValidator(revision);
  }

  /**
   * Problems with `received` (what the server wrote), given `sent` (what the client sent, to know
   * which method each response answers). An empty list means every message is valid.
   */
  problems(received: readonly Message[], sent: readonly Message[]): string[] {
    const methodOf = new Map<unknown, string>();
    for (const m of sent)
      if (m.method !== undefined && m.id !== undefined) methodOf.set(m.id, m.method);
    const found: string[] = [];
    for (const message of received) {
      const definition = this.definitionFor(message, methodOf);
      if (!definition) continue;
      const target = definition.endsWith('Result') ? message.result : message;
      const errors = specErrors(this.revision, definition, withoutNullId(target));
      if (errors.length > 0) {
        found.push(
          `${definition}: ${errors.join('; ')} in ${JSON.stringify(message).slice(0, 300)}`,
        );
      }
    }
    return found;
  }

  private definitionFor(message: Message, methodOf: Map<unknown, string>): string | undefined {
    if (message.method !== undefined)
      return this.methods.get(message.method) ?? 'JSONRPCNotification';
    if (message.error !== undefined) {
      const specific =
        this.revision === '2026-07-28' ? ERROR_DEFS_2026[message.error.code] : undefined;
      return specific ?? (this.revision === '2025-06-18' ? 'JSONRPCError' : 'JSONRPCErrorResponse');
    }
    const method = methodOf.get(message.id);
    if (method === undefined)
      return this.revision === '2025-06-18' ? 'JSONRPCResponse' : 'JSONRPCResultResponse';
    if (message.result?.resultType === 'input_required') return 'InputRequiredResult';
    if (EMPTY_RESULT_METHODS.has(method)) return 'EmptyResult';
    const request = this.methods.get(method);
    return request ? request.replace(/Request$/, 'Result') : 'Result';
  }
}

/**
 * JSON-RPC 2.0 answers an unparseable or id-less invalid message with `id: null`, which the MCP
 * schemas' RequestId does not admit; such errors are checked with the id left out.
 */
function withoutNullId(message: Message | WireMessage['result']): unknown {
  if (message && 'id' in message && message.id === null) {
    const { id: _id, ...rest } = message;
    return rest;
  }
  return message;
}
