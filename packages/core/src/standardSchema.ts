/**
 * The Standard Schema v1 interface (standardschema.dev), which zod, Valibot, ArkType and others
 * implement, with the optional Standard JSON Schema member through which a library exports its
 * JSON Schema. Only the members Rondo reads are described.
 */

/** One problem a Standard Schema found, with the path to the value it concerns. */
export interface StandardIssue {
  readonly message: string;
  readonly path?: readonly (PropertyKey | { readonly key: PropertyKey })[] | undefined;
}

/** What a Standard Schema's `validate` answers: the parsed value, or the issues. */
export type StandardResult<Output> =
  | { readonly value: Output; readonly issues?: undefined }
  | { readonly issues: readonly StandardIssue[] };

/** A schema of any library that implements Standard Schema v1. */
export interface StandardSchema<Input = unknown, Output = Input> {
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown) => StandardResult<Output> | Promise<StandardResult<Output>>;
    readonly types?: { readonly input: Input; readonly output: Output } | undefined;
    /** Standard JSON Schema: the library's own JSON Schema export, when it has one. */
    readonly jsonSchema?: {
      readonly input: (options: { readonly target: string }) => Record<string, unknown>;
    };
  };
}

/** True when `value` implements Standard Schema v1. */
export function isStandardSchema(value: unknown): value is StandardSchema {
  if (typeof value !== 'object' && typeof value !== 'function') return false;
  const standard = (value as { '~standard'?: unknown } | null)?.['~standard'];
  return (
    typeof standard === 'object' &&
    standard !== null &&
    typeof (standard as { validate?: unknown }).validate === 'function'
  );
}

/**
 * The JSON Schema (2020-12) of a Standard Schema: its Standard JSON Schema export, else a
 * `toJsonSchema()` method (ArkType's), else `undefined` (a Valibot schema not wrapped with
 * `toStandardJsonSchema` from `@valibot/to-json-schema`, say).
 */
export function standardJsonSchema(schema: StandardSchema): Record<string, unknown> | undefined {
  const exported = schema['~standard'].jsonSchema;
  if (exported) return exported.input({ target: 'draft-2020-12' });
  const method = (schema as { toJsonSchema?: unknown }).toJsonSchema;
  if (typeof method === 'function') return method.call(schema) as Record<string, unknown>;
  return undefined;
}

/** `a.b.0`-style text for a Standard Schema issue's path; `(arguments)` for the root. */
export function issuePath(issue: StandardIssue | undefined): string {
  const keys = (issue?.path ?? []).map((segment) =>
    typeof segment === 'object' ? segment.key : segment,
  );
  return keys.length > 0 ? keys.map(String).join('.') : '(arguments)';
}
