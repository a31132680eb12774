import { ClientRequestError } from '@rondo/core';
import { isPlainObject, type InputRequestBody, type JsonObject } from '@rondo/protocol';
import { inputRequestToWire } from '@rondo/protocol/internal';
import type { ServedLegacyRevision } from './options.js';

/** A server-to-client request ready for the wire. */
export interface WireRequest {
  method: string;
  params: Record<string, unknown>;
}

/**
 * The wire request for an input request on the negotiated revision. On 2025-06-18 an elicitation
 * has no `mode`, its schema loses what 2025-11-25 added (defaults beyond booleans, titled `oneOf`
 * enums become `enum` + `enumNames`), and what cannot be expressed there is refused.
 */
export function inputRequestForRevision(
  body: InputRequestBody,
  revision: ServedLegacyRevision,
): WireRequest {
  const wire = inputRequestToWire(body);
  if (revision === '2025-11-25') return wire;
  switch (body.kind) {
    case 'form_elicitation':
      return {
        method: wire.method,
        params: { message: body.message, requestedSchema: schemaFor2025_06_18(body.schema) },
      };
    case 'url_elicitation':
      throw new ClientRequestError('URL-mode elicitation needs protocol revision 2025-11-25');
    case 'sampling': {
      if (body.tools !== undefined || body.toolChoice !== undefined) {
        throw new ClientRequestError('Sampling with tools needs protocol revision 2025-11-25');
      }
      return wire;
    }
    case 'roots':
      return wire;
  }
}

function schemaFor2025_06_18(schema: JsonObject): JsonObject {
  const properties = isPlainObject(schema.properties) ? schema.properties : {};
  const downgraded: JsonObject = {};
  for (const [name, field] of Object.entries(properties)) {
    downgraded[name] = isPlainObject(field) ? fieldFor2025_06_18(name, field) : field;
  }
  const { $schema: _dialect, ...rest } = schema;
  return { ...rest, properties: downgraded };
}

function fieldFor2025_06_18(name: string, field: JsonObject): JsonObject {
  if (field.type === 'array') {
    throw new ClientRequestError(
      `Elicitation field "${name}" is a multi-select enum, which needs protocol revision 2025-11-25`,
    );
  }
  const { default: fallback, oneOf, ...rest } = field;
  if (Array.isArray(oneOf)) {
    const options = oneOf.filter((option): option is JsonObject => isPlainObject(option));
    return {
      ...rest,
      enum: options.map((option) => optionValue(option)),
      enumNames: options.map((option) =>
        typeof option.title === 'string' ? option.title : optionValue(option),
      ),
    };
  }
  return field.type === 'boolean' && fallback !== undefined ? { ...rest, default: fallback } : rest;
}

function optionValue(option: JsonObject): string {
  return typeof option.const === 'string' ? option.const : JSON.stringify(option.const);
}
