import type { JsonObject } from '@rondo/protocol';

/** Formats ajv-formats knows; OpenAPI's own (`int32`, `binary`...) only describe, so they are dropped. */
const KNOWN_FORMATS = new Set([
  'date',
  'time',
  'date-time',
  'duration',
  'uri',
  'uri-reference',
  'uri-template',
  'url',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'regex',
  'uuid',
  'json-pointer',
  'relative-json-pointer',
]);

/** OpenAPI-only keywords a JSON Schema validator has no use for. */
const DROPPED = new Set(['xml', 'externalDocs', 'discriminator', 'example']);

/**
 * An OpenAPI 3.0 or 3.1 schema (already dereferenced) as JSON Schema 2020-12: 3.0's `nullable`
 * becomes a `null` type, OpenAPI's descriptive formats and keywords are dropped, and a `$ref`
 * left by a circular structure accepts anything (the validator cannot follow it). Shared
 * sub-schemas are converted once; a cycle is cut where it closes.
 */
export function toJsonSchema(schema: unknown, seen = new Map<object, JsonObject>()): JsonObject {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return {};
  const known = seen.get(schema);
  if (known) return known;
  const source = schema as Record<string, unknown>;
  const out: JsonObject = {};
  seen.set(schema, out);
  if (typeof source.$ref === 'string') return out;
  for (const [key, value] of Object.entries(source)) {
    if (DROPPED.has(key) || key === 'nullable' || key.startsWith('x-')) continue;
    if (key === 'format' && !KNOWN_FORMATS.has(String(value))) continue;
    if (
      key === 'properties' ||
      key === 'patternProperties' ||
      key === '$defs' ||
      key === 'definitions'
    ) {
      out[key] = Object.fromEntries(
        Object.entries((value ?? {}) as Record<string, unknown>).map(([k, v]) => [
          k,
          toJsonSchema(v, seen),
        ]),
      );
    } else if (
      [
        'items',
        'additionalProperties',
        'not',
        'contains',
        'propertyNames',
        'if',
        'then',
        'else',
      ].includes(key)
    ) {
      out[key] = typeof value === 'boolean' ? value : toJsonSchema(value, seen);
    } else if (['allOf', 'anyOf', 'oneOf', 'prefixItems'].includes(key) && Array.isArray(value)) {
      out[key] = value.map((v) => toJsonSchema(v, seen));
    } else {
      out[key] = structuredClone(value) as JsonObject[string];
    }
  }
  if (source.nullable === true) {
    if (typeof out.type === 'string') out.type = [out.type, 'null'];
    else if (out.enum !== undefined && Array.isArray(out.enum)) out.enum = [...out.enum, null];
  }
  return out;
}
