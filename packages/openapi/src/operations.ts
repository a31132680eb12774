import type { JsonObject } from '@rondo/protocol';
import type { ToolDefinition } from '@rondo/core';
import { toJsonSchema } from './jsonSchema.js';

/** The HTTP methods an OpenAPI path item may have operations for. */
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
export type HttpMethod = (typeof METHODS)[number];

/** Where a parameter goes in the request. */
export type ParameterPlace = 'path' | 'query' | 'header' | 'cookie';

/** One parameter of an operation, under the argument name the tool gives it. */
export interface OperationParameter {
  readonly argument: string;
  readonly name: string;
  readonly in: ParameterPlace;
  readonly required: boolean;
}

/** A request body: its media type and whether it is required (the tool's `body` argument). */
export interface OperationBody {
  readonly mediaType: string;
  readonly required: boolean;
}

/** One operation of the document, as the tool that calls it. */
export interface Operation {
  readonly tool: ToolDefinition;
  readonly method: HttpMethod;
  readonly path: string;
  readonly parameters: readonly OperationParameter[];
  readonly body: OperationBody | undefined;
  /** The security requirements (alternatives, each a set of scheme names). */
  readonly security: readonly Readonly<Record<string, readonly string[]>>[];
  /** True when the 2xx result is a JSON object wrapped as `{ result }` (an array, a number). */
  readonly wrapsResult: boolean;
  readonly tags: readonly string[];
}

/** Which operations become tools: by tag and by path (`*` matches any run of characters). */
export interface OperationFilter {
  readonly includeTags?: readonly string[];
  readonly excludeTags?: readonly string[];
  readonly includePaths?: readonly string[];
  readonly excludePaths?: readonly string[];
}

const JSON_TYPE = /^application\/(.+\+)?json(;.*)?$/i;

/**
 * The operations of a dereferenced OpenAPI document that `filter` keeps, each with the descriptor
 * of its tool: named by `operationId` (else method and path), described by its summary and
 * description; arguments are its path, query, header and cookie parameters and, for a JSON or form
 * body, `body`; the output schema is the first 2xx JSON response's; GET and HEAD are read-only.
 */
export function operationsOf(
  document: Record<string, unknown>,
  filter: OperationFilter = {},
): Operation[] {
  const operations: Operation[] = [];
  const taken = new Set<string>();
  const paths = (document.paths ?? {}) as Record<string, Record<string, unknown>>;
  const topSecurity = (document.security ?? []) as Record<string, string[]>[];
  for (const [path, item] of Object.entries(paths)) {
    if (!kept(path, [], filter, true)) continue;
    for (const method of METHODS) {
      const operation = item[method] as Record<string, unknown> | undefined;
      if (operation === undefined) continue;
      const tags = (operation.tags ?? []) as string[];
      if (!kept(path, tags, filter, false)) continue;
      const name = uniqueName(toolName(operation.operationId, method, path), taken);
      const parameters = parametersOf([
        ...((item.parameters ?? []) as Record<string, unknown>[]),
        ...((operation.parameters ?? []) as Record<string, unknown>[]),
      ]);
      const body = bodyOf(operation.requestBody as Record<string, unknown> | undefined);
      const output = outputOf(operation.responses as Record<string, unknown> | undefined);
      const tool: ToolDefinition = {
        name,
        ...describe(operation, method, path),
        inputSchema: inputSchemaOf(parameters.list, body),
        ...(output ? { outputSchema: output.schema } : {}),
        annotations: {
          readOnlyHint: method === 'get' || method === 'head',
          ...(method === 'delete' ? { destructiveHint: true } : {}),
          ...(method === 'put' || method === 'delete' ? { idempotentHint: true } : {}),
          openWorldHint: true,
        },
      };
      operations.push({
        tool,
        method,
        path,
        parameters: parameters.list.map((p) => p.parameter),
        body: body && { mediaType: body.mediaType, required: body.required },
        security: (operation.security ?? topSecurity) as Record<string, string[]>[],
        wrapsResult: output?.wraps ?? false,
        tags,
      });
    }
  }
  return operations;
}

function kept(
  path: string,
  tags: readonly string[],
  filter: OperationFilter,
  pathOnly: boolean,
): boolean {
  const matches = (patterns: readonly string[] | undefined) =>
    patterns?.some((p) => glob(p).test(path));
  if (filter.includePaths && !matches(filter.includePaths)) return false;
  if (matches(filter.excludePaths)) return false;
  if (pathOnly) return true;
  if (filter.includeTags && !tags.some((t) => filter.includeTags!.includes(t))) return false;
  return !tags.some((t) => filter.excludeTags?.includes(t));
}

function glob(pattern: string): RegExp {
  return new RegExp(
    `^${pattern
      .split('*')
      .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  );
}

/** A tool name by the spec's rule from an operationId, else from the method and path. */
function toolName(operationId: unknown, method: string, path: string): string {
  const raw =
    typeof operationId === 'string' && operationId !== '' ? operationId : `${method}_${path}`;
  const cleaned = raw
    .replace(/[{}]/g, '')
    .replace(/[^A-Za-z0-9_.-]+/g, '_')
    .replace(/^_+|_+$/g, '');
  return (cleaned || method).slice(0, 120);
}

function uniqueName(name: string, taken: Set<string>): string {
  let chosen = name;
  for (let n = 2; taken.has(chosen); n++) chosen = `${name}_${n}`;
  taken.add(chosen);
  return chosen;
}

function describe(operation: Record<string, unknown>, method: string, path: string) {
  const summary = typeof operation.summary === 'string' ? operation.summary : undefined;
  const details = typeof operation.description === 'string' ? operation.description : undefined;
  const description = [summary, details].filter((s) => s !== undefined && s !== '').join('\n\n');
  return {
    ...(summary ? { title: summary } : {}),
    description: description || `${method.toUpperCase()} ${path}`,
  };
}

interface ArgumentParameter {
  parameter: OperationParameter;
  schema: JsonObject;
}

/** The parameters, an operation's own replacing its path item's; a name taken twice gets its place in front. */
function parametersOf(raw: readonly Record<string, unknown>[]): { list: ArgumentParameter[] } {
  const byKey = new Map<string, Record<string, unknown>>();
  for (const parameter of raw)
    byKey.set(`${String(parameter.in)}:${String(parameter.name)}`, parameter);
  const list: ArgumentParameter[] = [];
  const names = new Set<string>(['body']);
  for (const parameter of byKey.values()) {
    const place = parameter.in as ParameterPlace;
    if (!['path', 'query', 'header', 'cookie'].includes(place)) continue;
    const name = String(parameter.name);
    const argument = names.has(name) ? `${place}_${name}` : name;
    names.add(argument);
    const schema = toJsonSchema(parameter.schema ?? contentSchema(parameter.content));
    if (typeof parameter.description === 'string' && schema.description === undefined)
      schema.description = parameter.description;
    list.push({
      parameter: {
        argument,
        name,
        in: place,
        required: place === 'path' || parameter.required === true,
      },
      schema,
    });
  }
  return { list };
}

function contentSchema(content: unknown): unknown {
  const first = Object.values((content ?? {}) as Record<string, { schema?: unknown }>)[0];
  return first?.schema;
}

function bodyOf(body: Record<string, unknown> | undefined) {
  const content = (body?.content ?? {}) as Record<string, { schema?: unknown }>;
  const mediaType =
    Object.keys(content).find((type) => JSON_TYPE.test(type)) ??
    Object.keys(content).find(
      (type) => type === 'application/x-www-form-urlencoded' || type === 'multipart/form-data',
    );
  if (mediaType === undefined) return undefined;
  const schema = toJsonSchema(content[mediaType]?.schema);
  if (typeof body?.description === 'string' && schema.description === undefined)
    schema.description = body.description;
  return { mediaType, required: body?.required === true, schema };
}

function inputSchemaOf(
  parameters: readonly ArgumentParameter[],
  body: { required: boolean; schema: JsonObject } | undefined,
): JsonObject {
  const properties: JsonObject = {};
  const required: string[] = [];
  for (const { parameter, schema } of parameters) {
    properties[parameter.argument] = schema;
    if (parameter.required) required.push(parameter.argument);
  }
  if (body) {
    properties.body = body.schema;
    if (body.required) required.push('body');
  }
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}) };
}

/** The output schema of the first 2xx response with a JSON schema; a non-object one is wrapped. */
function outputOf(
  responses: Record<string, unknown> | undefined,
): { schema: JsonObject; wraps: boolean } | undefined {
  for (const [status, response] of Object.entries(responses ?? {})) {
    if (!/^2(\d\d|XX)$/i.test(status)) continue;
    const content = ((response as Record<string, unknown> | undefined)?.content ?? {}) as Record<
      string,
      { schema?: unknown }
    >;
    const type = Object.keys(content).find((t) => JSON_TYPE.test(t));
    if (type === undefined || content[type]?.schema === undefined) return undefined;
    const schema = toJsonSchema(content[type].schema);
    if (schema.type === 'object') return { schema, wraps: false };
    return {
      schema: { type: 'object', properties: { result: schema }, required: ['result'] },
      wraps: true,
    };
  }
  return undefined;
}
