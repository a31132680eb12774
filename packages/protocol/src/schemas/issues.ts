import type { z } from 'zod';

/**
 * Turns a zod error into one short sentence naming the member at fault, such as
 * `params.name: expected string` or `params._meta["io.modelcontextprotocol/protocolVersion"]: required`.
 * For a union, the branch that got furthest into the value is the one reported.
 */

type Issue = z.core.$ZodIssue;
type Path = readonly PropertyKey[];

interface LocatedIssue {
  path: Path;
  issue: Issue;
}

/** Describes the first problem of a failed parse, its path starting at `root`. */
export function describeZodError(error: z.ZodError, root: string): string {
  const first = error.issues[0];
  if (first === undefined) return `${root}: invalid`;
  const { path, issue } = locate(first, []);
  return `${formatPath(root, path)}: ${describeIssue(issue)}`;
}

/** Formats a member path: identifiers as `.name`, indexes as `[0]`, other keys as `["a/b"]`. */
export function formatPath(root: string, path: Path): string {
  let text = root;
  for (const segment of path) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else if (typeof segment === 'string' && /^[A-Za-z_$][\w$]*$/.test(segment)) {
      text += text === '' ? segment : `.${segment}`;
    } else text += `[${JSON.stringify(String(segment))}]`;
  }
  return text === '' ? 'value' : text;
}

/**
 * Follows union issues into the branch that fits the value best: the one whose first problem lies
 * deepest, then one whose problem is a wrong value rather than a missing member, then the one with
 * the fewest problems.
 */
function locate(issue: Issue, base: Path): LocatedIssue {
  const path = [...base, ...issue.path];
  if (issue.code !== 'invalid_union' || issue.errors.length === 0) return { path, issue };
  let best: { located: LocatedIssue; score: readonly number[] } | undefined;
  for (const branch of issue.errors) {
    const first = branch[0];
    if (first === undefined) continue;
    const located = locate(first, path);
    const score = [located.path.length, isMissing(located.issue) ? 0 : 1, -branch.length];
    if (best === undefined || isBetter(score, best.score)) best = { located, score };
  }
  return best?.located ?? { path, issue };
}

function isMissing(issue: Issue): boolean {
  return issue.code === 'invalid_type' && issue.message.endsWith('received undefined');
}

function isBetter(score: readonly number[], than: readonly number[]): boolean {
  for (const [index, value] of score.entries()) {
    const other = than[index] ?? 0;
    if (value !== other) return value > other;
  }
  return false;
}

const typeNames: Readonly<Record<string, string>> = { int: 'integer', record: 'object' };

function describeIssue(issue: Issue): string {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.expected === 'nonoptional') return 'required';
      if (issue.expected === 'never') {
        return issue.message.startsWith('Invalid input') ? 'not allowed' : issue.message;
      }
      return `expected ${typeNames[issue.expected] ?? issue.expected}`;
    case 'invalid_value':
      return expectedOneOf(issue.values);
    case 'invalid_union': {
      const options = 'options' in issue && Array.isArray(issue.options) ? issue.options : [];
      return options.length === 0 ? 'matches none of the allowed shapes' : expectedOneOf(options);
    }
    case 'unrecognized_keys':
      return `unexpected member ${issue.keys.map((key) => JSON.stringify(key)).join(', ')}`;
    case 'too_small':
    case 'too_big':
      return issue.message.replace(/^Too (small|big): /, '');
    case 'invalid_format':
    case 'not_multiple_of':
    case 'invalid_key':
    case 'invalid_element':
    case 'custom':
      return issue.message;
  }
}

function expectedOneOf(values: readonly unknown[]): string {
  const listed = values.map((value) => JSON.stringify(value)).join(', ');
  return values.length === 1 ? `expected ${listed}` : `expected one of ${listed}`;
}
