import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { describe } from 'vitest';

/**
 * The official MCP JSON schemas, for tests: load a revision's `schema.json` and validate a value
 * against one of its definitions (`CallToolResult`, `ContentBlock`, ...) with ajv, formats
 * included, or a whole wire conversation with {@link WireValidator}. The schemas live outside the repository, in `RONDO_SPEC_DIR` (default
 * `../shared/spec` beside the repository root); suites that need them skip, saying why, when
 * the folder is absent.
 */

export const SPEC_REVISIONS = ['2025-06-18', '2025-11-25', '2026-07-28'] as const;
export type SpecRevision = (typeof SPEC_REVISIONS)[number];

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

/** Where the spec folders are. */
export const specDir = process.env.RONDO_SPEC_DIR ?? path.resolve(repoRoot, '../shared/spec');

/** The path of a revision's `schema.json`. */
export function specSchemaPath(revision: SpecRevision): string {
  return path.join(specDir, revision, 'schema.json');
}

/** True when the schemas of every revision are present. */
export function specAvailable(): boolean {
  return SPEC_REVISIONS.every((revision) => existsSync(specSchemaPath(revision)));
}

/**
 * `describe` when the spec is present, otherwise `describe.skip` after printing why, so a missing
 * spec folder never passes silently.
 */
export function describeWithSpec(name: string, body: () => void): void {
  if (specAvailable()) {
    describe(name, body);
    return;
  }
  console.warn(`skipping "${name}": MCP spec schemas not found in ${specDir} (set RONDO_SPEC_DIR)`);
  describe.skip(name, body);
}

const schemas = new Map<SpecRevision, Record<string, unknown>>();

/** One revision's schema, parsed (once; treat it as read-only). */
export function loadSpecSchema(revision: SpecRevision): Record<string, unknown> {
  let schema = schemas.get(revision);
  if (schema === undefined) {
    schema = JSON.parse(readFileSync(specSchemaPath(revision), 'utf8')) as Record<string, unknown>;
    schemas.set(revision, schema);
  }
  return schema;
}

export type SpecDefinition = Record<string, unknown>;

/** A revision's definitions (`$defs`, or `definitions` in draft-07), by name. */
export function specDefinitions(revision: SpecRevision): Readonly<Record<string, SpecDefinition>> {
  const schema = loadSpecSchema(revision);
  return (schema.$defs ?? schema.definitions) as Record<string, SpecDefinition>;
}

/** One definition of a revision's schema, as raw JSON. */
export function specDefinition(revision: SpecRevision, name: string): SpecDefinition {
  const definition = specDefinitions(revision)[name];
  if (definition === undefined) throw new Error(`${revision} has no definition ${name}`);
  return definition;
}

const addFormats = addFormatsModule as unknown as (ajv: Ajv | Ajv2020) => void;
const compilers = new Map<string, Ajv | Ajv2020>();
const validators = new Map<string, ValidateFunction>();

/**
 * The ajv instance of a revision's schema. `closed` names definitions made closed
 * (`additionalProperties: false`) in this instance only, so a member the revision lacks fails;
 * `Definition.property` closes one inline property's object.
 */
function compilerFor(revision: SpecRevision, closed: readonly string[] = []): Ajv | Ajv2020 {
  const key = `${revision}|${closed.join(',')}`;
  let ajv = compilers.get(key);
  if (ajv === undefined) {
    const options = { strict: true, allowUnionTypes: true, allErrors: true };
    // 2025-06-18 is draft-07; later revisions are JSON Schema 2020-12.
    ajv = revision === '2025-06-18' ? new Ajv(options) : new Ajv2020(options);
    addFormats(ajv);
    ajv.addSchema(closeDefinitions(revision, closed), `mcp-${revision}`);
    compilers.set(key, ajv);
  }
  return ajv;
}

function closeDefinitions(revision: SpecRevision, closed: readonly string[]): object {
  if (closed.length === 0) return loadSpecSchema(revision);
  const schema = structuredClone(loadSpecSchema(revision));
  const defs = (schema.$defs ?? schema.definitions) as Record<string, SpecDefinition>;
  for (const entry of closed) {
    const [name = '', property] = entry.split('.');
    const definition = defs[name];
    if (definition === undefined) continue;
    if (property === undefined) {
      defs[name] = { ...definition, additionalProperties: false };
      continue;
    }
    const properties = definition.properties as Record<string, SpecDefinition>;
    properties[property] = { ...properties[property], additionalProperties: false };
  }
  return schema;
}

/** The compiled validator of one definition (`#/$defs/<name>`, or `#/definitions/<name>` in draft-07). */
export function specValidator(
  revision: SpecRevision,
  definition: string,
  closed: readonly string[] = [],
): ValidateFunction {
  const key = `${revision}#${definition}|${closed.join(',')}`;
  let validate = validators.get(key);
  if (validate === undefined) {
    const section = revision === '2025-06-18' ? 'definitions' : '$defs';
    validate = compilerFor(revision, closed).getSchema(`mcp-${revision}#/${section}/${definition}`);
    if (validate === undefined) throw new Error(`${revision} has no definition ${definition}`);
    validators.set(key, validate);
  }
  return validate;
}

/** The problems of `value` against a definition, one line each; empty when it is valid. */
export function specErrors(
  revision: SpecRevision,
  definition: string,
  value: unknown,
  closed: readonly string[] = [],
): string[] {
  const validate = specValidator(revision, definition, closed);
  if (validate(value)) return [];
  return (validate.errors ?? []).map(
    (error) => `${error.instancePath || '/'} ${error.message ?? error.keyword}`,
  );
}

/** Throws, listing the problems, unless `value` is valid against the definition. */
export function assertSpecValid(revision: SpecRevision, definition: string, value: unknown): void {
  const errors = specErrors(revision, definition, value);
  if (errors.length > 0) {
    throw new Error(
      `not a valid ${revision} ${definition}:\n  ${errors.join('\n  ')}\nvalue: ${JSON.stringify(value)}`,
    );
  }
}

/** A JSON-RPC message as the validator reads it: loose, so every suite's message type fits. */
export interface CheckedMessage {
  jsonrpc?: string;
  id?: string | number | null;
  method?: string;
  params?: unknown;
  result?: { [member: string]: unknown; resultType?: unknown };
  error?: { code: number };
}

/** What a server wrote is checked knowing which method each response answers. */
export type MethodOf = (id: string | number | null | undefined) => string | undefined;

/** Result definitions that do not follow the `XRequest` → `XResult` naming. */
const EMPTY_RESULT_METHODS = new Set([
  'ping',
  'logging/setLevel',
  'resources/subscribe',
  'resources/unsubscribe',
]);

/** 2026-07-28 error codes whose definition describes the whole response. */
const ERROR_RESPONSE_DEFS_2026: Readonly<Record<number, string>> = {
  [-32020]: 'HeaderMismatchError',
  [-32021]: 'MissingRequiredClientCapabilityError',
  [-32022]: 'UnsupportedProtocolVersionError',
};

/** 2026-07-28 error codes whose definition describes the error object. */
const ERROR_OBJECT_DEFS_2026: Readonly<Record<number, string>> = {
  [-32700]: 'ParseError',
  [-32600]: 'InvalidRequestError',
  [-32601]: 'MethodNotFoundError',
  [-32602]: 'InvalidParamsError',
  [-32603]: 'InternalError',
};

/** Options of {@link WireValidator.load}. */
export interface WireValidatorOptions {
  /** Definitions checked closed (`additionalProperties: false`); `Definition.property` for an inline one. */
  closed?: readonly string[];
}

/**
 * The one wire validator of the test suites: checks what a server wrote against one revision's
 * official JSON Schema. Every message is checked against its JSON-RPC envelope, then results
 * against the typed result of the request they answer (`InputRequiredResult` for an
 * `input_required` one), notifications and server requests against their method's definition,
 * and errors against the definition of their code where the revision has one.
 */
export class WireValidator {
  /** The request or notification definition of each method. */
  private readonly methods = new Map<string, string>();
  private readonly closed: readonly string[];

  private constructor(
    readonly revision: SpecRevision,
    options: WireValidatorOptions,
  ) {
    this.closed = options.closed ?? [];
    for (const [name, definition] of Object.entries(specDefinitions(revision))) {
      const method = (definition.properties as { method?: { const?: unknown } } | undefined)?.method
        ?.const;
      if (typeof method === 'string' && !this.methods.has(method)) this.methods.set(method, name);
    }
  }

  /** The validator of a revision, or undefined (with a printed reason) when the spec folder is absent. */
  static load(
    revision: SpecRevision,
    options: WireValidatorOptions = {},
  ): WireValidator | undefined {
    const file = specSchemaPath(revision);
    if (!existsSync(file)) {
      console.warn(`skipping ${revision} wire validation: ${file} not found (set RONDO_SPEC_DIR)`);
      return undefined;
    }
    return new WireValidator(revision, options);
  }

  /** The definition a method's request or notification has in this revision, if any. */
  definitionOf(method: string): string | undefined {
    return this.methods.get(method);
  }

  /**
   * Problems with `received` (what the server wrote), given what the client sent (or a function
   * naming the method each response id answers). An empty list means every message is valid.
   */
  problems(
    received: readonly CheckedMessage[],
    sent: readonly CheckedMessage[] | MethodOf,
  ): string[] {
    const methodOf = typeof sent === 'function' ? sent : methodsById(sent);
    const found: string[] = [];
    for (const message of received) {
      for (const [definition, value] of this.checksFor(message, methodOf)) {
        const errors = specErrors(this.revision, definition, withoutNullId(value), this.closed);
        if (errors.length > 0) {
          found.push(
            `${definition}: ${errors.join('; ')} in ${JSON.stringify(message).slice(0, 300)}`,
          );
        }
      }
    }
    return found;
  }

  /** The definitions one message is checked against, each with the value it describes. */
  private checksFor(message: CheckedMessage, methodOf: MethodOf): [string, unknown][] {
    const legacyEnvelope = this.revision === '2025-06-18';
    if (message.method !== undefined) {
      const envelope = message.id === undefined ? 'JSONRPCNotification' : 'JSONRPCRequest';
      const own = this.methods.get(message.method);
      return own
        ? [
            [envelope, message],
            [own, message],
          ]
        : [[envelope, message]];
    }
    if (message.error !== undefined) {
      const checks: [string, unknown][] = [
        [legacyEnvelope ? 'JSONRPCError' : 'JSONRPCErrorResponse', message],
      ];
      if (this.revision !== '2026-07-28') return checks;
      const responseDef = ERROR_RESPONSE_DEFS_2026[message.error.code];
      const objectDef = ERROR_OBJECT_DEFS_2026[message.error.code];
      if (responseDef) checks.push([responseDef, message]);
      else if (objectDef) checks.push([objectDef, message.error]);
      return checks;
    }
    const checks: [string, unknown][] = [
      [legacyEnvelope ? 'JSONRPCResponse' : 'JSONRPCResultResponse', message],
    ];
    const method = methodOf(message.id);
    if (method !== undefined) checks.push([this.resultDefinition(method, message), message.result]);
    return checks;
  }

  private resultDefinition(method: string, message: CheckedMessage): string {
    if (message.result?.resultType === 'input_required') return 'InputRequiredResult';
    if (EMPTY_RESULT_METHODS.has(method)) return 'EmptyResult';
    const request = this.methods.get(method);
    return request ? request.replace(/Request$/, 'Result') : 'Result';
  }
}

function methodsById(sent: readonly CheckedMessage[]): MethodOf {
  const methods = new Map<unknown, string>();
  for (const m of sent)
    if (m.method !== undefined && m.id !== undefined) methods.set(m.id, m.method);
  return (id) => methods.get(id);
}

/**
 * JSON-RPC 2.0 answers an unparseable or id-less invalid message with `id: null`, which the MCP
 * schemas' RequestId does not admit; such messages are checked with the id left out.
 */
function withoutNullId(value: unknown): unknown {
  if (value !== null && typeof value === 'object' && 'id' in value && value.id === null) {
    const { id: _id, ...rest } = value;
    return rest;
  }
  return value;
}

/** One example message of the spec. */
export interface SpecExample {
  /** The type it illustrates: its folder name, e.g. `CallToolRequest`. */
  type: string;
  file: string;
  value: unknown;
}

/** The spec's example messages (2026-07-28 ships them), grouped by type. */
export function loadSpecExamples(
  revision: SpecRevision = '2026-07-28',
): Map<string, SpecExample[]> {
  const root = path.join(specDir, revision, 'examples');
  const examples = new Map<string, SpecExample[]>();
  if (!existsSync(root)) return examples;
  for (const type of readdirSync(root).sort()) {
    const files = readdirSync(path.join(root, type)).filter((file) => file.endsWith('.json'));
    examples.set(
      type,
      files.sort().map((file) => ({
        type,
        file,
        value: JSON.parse(readFileSync(path.join(root, type, file), 'utf8')) as unknown,
      })),
    );
  }
  return examples;
}
