import { TOOL_NAME_RULE } from '@rondo/core';
import {
  compileArgumentValidator,
  isValidToolName,
  objectSchemaProblem,
} from '@rondo/core/internal';
import type { Json, JsonObject } from '@rondo/protocol';
import { z } from 'zod';
import { PrologLoadError, PrologProviderError, type ProviderProblem } from './errors.js';
import { parseDescription, type ProviderDescription } from './messages.js';
import { uriTemplateProblem } from './uriTemplateCheck.js';

/** Runs one call on a worker. */
type WorkerCall = (method: string, params: JsonObject) => Promise<Json>;

const place = z.object({ file: z.string().nullable(), line: z.number().int().nullable() });
const checkAnswer = z.object({
  problems: z.array(place.extend({ message: z.string() })),
  locations: z.record(z.string(), place),
});
type CheckAnswer = z.infer<typeof checkAnswer>;

/**
 * Reads a freshly loaded provider's description and checks it first: the one check behind both
 * serving and `rondo-logtalk check`. Any problem throws a {@link PrologProviderError} listing
 * them all, unless `inspectOnly` (then the description is returned when it can be read, and
 * `problems()` reports them). A description Node cannot read at all is a `PrologLoadError`.
 */
export async function checkedDescription(
  call: WorkerCall,
  inspectOnly: boolean,
  firstFile: string,
): Promise<ProviderDescription> {
  const answer = await askWorker(call);
  const found = inOrder(answer.problems.map(toProblem));
  let value: Json;
  try {
    value = await call('describe', {});
  } catch (failure) {
    // A descriptor of the wrong shape stops the description; the check has said why.
    if (found.length > 0) throw new PrologProviderError(found, firstFile);
    throw failure;
  }
  const description = parseDescription(value, false);
  if (typeof description === 'string') throw new PrologLoadError(firstFile, undefined, description);
  const problems = inOrder([...found, ...nodeProblems(description, answer)]);
  if (problems.length > 0 && !inspectOnly) throw new PrologProviderError(problems, firstFile);
  return description;
}

/**
 * Asks a worker what it finds wrong (descriptors, modes) and adds what Node checks itself:
 * every tool and event type schema must compile as JSON Schema, every resource template must be
 * RFC 6570.
 */
export async function providerProblems(
  call: WorkerCall,
  description: ProviderDescription,
): Promise<ProviderProblem[]> {
  const answer = await askWorker(call);
  return inOrder([...answer.problems.map(toProblem), ...nodeProblems(description, answer)]);
}

/** By file, then line (unplaced ones last), as an editor lists them. */
function inOrder(problems: ProviderProblem[]): ProviderProblem[] {
  const key = (p: ProviderProblem) => [p.file ?? '\uffff', p.line ?? Infinity] as const;
  return problems.sort((a, b) => {
    const [fa, la] = key(a);
    const [fb, lb] = key(b);
    return fa === fb ? la - lb : fa < fb ? -1 : 1;
  });
}

async function askWorker(call: WorkerCall): Promise<CheckAnswer> {
  return checkAnswer.parse(await call('check', {}));
}

function toProblem(p: CheckAnswer['problems'][number]): ProviderProblem {
  return { ...located(p), message: p.message };
}

/** What only Node checks, located where the worker says each part was declared. */
function nodeProblems(description: ProviderDescription, answer: CheckAnswer): ProviderProblem[] {
  const at = (key: string) => located(answer.locations[key]);
  const problems: ProviderProblem[] = [];
  for (const tool of description.tools) {
    // A name or schema clients reject makes them reject the whole tools/list: refused here.
    if (!isValidToolName(tool.name))
      problems.push({
        ...at('tools'),
        message: `tool ${JSON.stringify(tool.name)} has a name clients reject; expected ${TOOL_NAME_RULE.replace(/^a tool name is/, 'a name of')}`,
      });
    for (const [kind, schema] of [
      ['inputSchema', tool.inputSchema],
      ['outputSchema', tool.outputSchema],
    ] as const) {
      const problem = schema === undefined ? undefined : schemaProblem(schema, kind);
      // A schema given by input_schema/2 or output_schema/2 is located there, else at tools/1.
      const where = at(answer.locations[kind] ? kind : 'tools');
      if (problem)
        problems.push({
          ...where,
          message: `tool ${tool.name}: ${kind} ${problem}`,
        });
    }
  }
  for (const type of description.events) {
    // An event type the Events extension would refuse stops the host at start: refused here.
    for (const [kind, schema] of [
      ['input', type.inputSchema],
      ['payload', type.payloadSchema],
    ] as const) {
      const problem = schema === undefined ? undefined : eventSchemaProblem(schema, kind);
      if (problem)
        problems.push({ ...at('events'), message: `event type "${type.name}" ${kind} ${problem}` });
    }
  }
  for (const { uriTemplate } of description.templates) {
    const problem = uriTemplateProblem(uriTemplate);
    if (problem)
      problems.push({
        ...at('templates'),
        message: `resource template "${uriTemplate}" is not a URI template: ${problem}; expected an RFC 6570 template`,
      });
  }
  return problems;
}

/** What is wrong with a tool's schema, as "found; expected": it must compile, and be an object schema. */
function schemaProblem(schema: JsonObject, kind: string): string | undefined {
  try {
    compileArgumentValidator(schema, 'schema');
  } catch (failure) {
    return `${(failure as Error).message.replace(/^schema: /, '')}; expected a JSON Schema object`;
  }
  const found = objectSchemaProblem(schema);
  if (found === undefined) return undefined;
  return `has ${found}; expected an object schema ({type-object, properties-{...}}), as the ${kind} of every tool is`;
}

/** What is wrong with an event type's schema: it must compile; the input must be an object schema. */
function eventSchemaProblem(schema: JsonObject, kind: 'input' | 'payload'): string | undefined {
  try {
    compileArgumentValidator(schema, 'schema');
  } catch (failure) {
    return `${(failure as Error).message.replace(/^schema: /, '')}; expected a JSON Schema object`;
  }
  const found = kind === 'input' ? objectSchemaProblem(schema) : undefined;
  if (found === undefined) return undefined;
  return `has ${found}; expected an object schema ({type-object, properties-{...}}), as the arguments of a subscription are`;
}

function located(place: { file: string | null; line: number | null } | undefined) {
  const where: { file?: string; line?: number } = {};
  if (place?.file) where.file = place.file;
  if (place?.line !== undefined && place.line !== null) where.line = place.line;
  return where;
}
