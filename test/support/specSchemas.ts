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
 * included. The schemas live outside the repository, in `RONDO_SPEC_DIR` (default
 * `../shared/spec` beside the repository root); suites that need them skip, saying why, when
 * the folder is absent.
 */

export const SPEC_REVISIONS = ['2025-06-18', '2025-11-25', '2026-07-28'] as const;
export type SpecRevision = (typeof SPEC_REVISIONS)[number];

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

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
const compilers = new Map<SpecRevision, Ajv | Ajv2020>();
const validators = new Map<string, ValidateFunction>();

function compilerFor(revision: SpecRevision): Ajv | Ajv2020 {
  let ajv = compilers.get(revision);
  if (ajv === undefined) {
    const options = { strict: true, allowUnionTypes: true, allErrors: true };
    // 2025-06-18 is draft-07; later revisions are JSON Schema 2020-12.
    ajv = revision === '2025-06-18' ? new Ajv(options) : new Ajv2020(options);
    addFormats(ajv);
    ajv.addSchema(loadSpecSchema(revision), `mcp-${revision}`);
    compilers.set(revision, ajv);
  }
  return ajv;
}

/** The compiled validator of one definition (`#/$defs/<name>`, or `#/definitions/<name>` in draft-07). */
export function specValidator(revision: SpecRevision, definition: string): ValidateFunction {
  const key = `${revision}#${definition}`;
  let validate = validators.get(key);
  if (validate === undefined) {
    const section = revision === '2025-06-18' ? 'definitions' : '$defs';
    validate = compilerFor(revision).getSchema(`mcp-${revision}#/${section}/${definition}`);
    if (validate === undefined) throw new Error(`${revision} has no definition ${definition}`);
    validators.set(key, validate);
  }
  return validate;
}

/** The problems of `value` against a definition, one line each; empty when it is valid. */
export function specErrors(revision: SpecRevision, definition: string, value: unknown): string[] {
  const validate = specValidator(revision, definition);
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
