import parseUriTemplate from 'uri-templates';

/** An RFC 6570 template that can expand variables and match concrete URIs. */
export interface CompiledTemplate {
  readonly template: string;
  /** The variables of a URI that this template produces, or `undefined` when it does not match. */
  match(uri: string): Record<string, string | string[]> | undefined;
  /** The template's variable names, in order. */
  readonly variables: readonly string[];
}

/** Compiles an RFC 6570 template once. */
export function compileTemplate(template: string): CompiledTemplate {
  const compiled = parseUriTemplate(template);
  const variables = compiled.varNames;
  return {
    template,
    variables,
    match(uri) {
      const values = compiled.fromUri(uri) as Record<string, string | string[]> | undefined;
      if (!values) return undefined;
      // fromUri is lenient: a match is real only when expanding it gives the same URI back.
      return compiled.fillFromObject(values as Record<string, string>) === uri ? values : undefined;
    },
  };
}
