import { compileArgumentValidator } from '@rondo/core/internal';
import type { Json, JsonObject } from '@rondo/protocol';
import { z } from 'zod';
import type { ProviderDescription } from './messages.js';
import { uriTemplateProblem } from './uriTemplateCheck.js';

/** One thing `rondo-logtalk check` reports: where (when known) and what. */
export interface ProviderProblem {
  file?: string;
  line?: number;
  message: string;
}

const place = z.object({ file: z.string().nullable(), line: z.number().int().nullable() });
const checkAnswer = z.object({
  problems: z.array(place.extend({ message: z.string() })),
  locations: z.record(z.string(), place),
});

/**
 * Asks a worker what it finds wrong (descriptors, modes) and adds what Node checks itself:
 * every tool schema must compile as JSON Schema, every resource template must be RFC 6570.
 */
export async function providerProblems(
  call: (method: string, params: JsonObject) => Promise<Json>,
  description: ProviderDescription,
): Promise<ProviderProblem[]> {
  const answer = checkAnswer.parse(await call('check', {}));
  const at = (key: string) => located(answer.locations[key]);
  const problems: ProviderProblem[] = answer.problems.map((p) => ({
    ...located(p),
    message: p.message,
  }));
  for (const tool of description.tools)
    for (const [kind, schema] of [
      ['inputSchema', tool.inputSchema],
      ['outputSchema', tool.outputSchema],
    ] as const) {
      const problem = schema === undefined ? undefined : schemaProblem(schema);
      // A schema given by input_schema/2 or output_schema/2 is located there, else at tools/1.
      const where = at(answer.locations[kind] ? kind : 'tools');
      if (problem) problems.push({ ...where, message: `tool ${tool.name}: ${kind} ${problem}` });
    }
  for (const { uriTemplate } of description.templates) {
    const problem = uriTemplateProblem(uriTemplate);
    if (problem)
      problems.push({
        ...at('templates'),
        message: `resource template "${uriTemplate}" is not a URI template: ${problem}`,
      });
  }
  return problems;
}

function schemaProblem(schema: JsonObject): string | undefined {
  try {
    compileArgumentValidator(schema, 'schema');
    return undefined;
  } catch (failure) {
    return (failure as Error).message.replace(/^schema: /, '');
  }
}

function located(place: { file: string | null; line: number | null } | undefined) {
  const where: { file?: string; line?: number } = {};
  if (place?.file) where.file = place.file;
  if (place?.line !== undefined && place.line !== null) where.line = place.line;
  return where;
}
