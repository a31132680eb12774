/**
 * What is wrong with an RFC 6570 URI template (level 4), or undefined when it is well formed.
 * Clients expand and match templates themselves, so a malformed one (`logtalk://x/{path`)
 * must be refused where the provider declares it, not served.
 */
export function uriTemplateProblem(template: string): string | undefined {
  let at = 0;
  while (at < template.length) {
    const open = template.indexOf('{', at);
    const close = template.indexOf('}', at);
    if (close !== -1 && (open === -1 || close < open)) return `"}" at ${close + 1} closes nothing`;
    if (open === -1) return undefined;
    const end = template.indexOf('}', open);
    if (end === -1) return `"{" at ${open + 1} is never closed`;
    const problem = expressionProblem(template.slice(open + 1, end));
    if (problem) return `${problem} in "${template.slice(open, end + 1)}"`;
    at = end + 1;
  }
  return undefined;
}

const OPERATORS = new Set(['+', '#', '.', '/', ';', '?', '&']);
const RESERVED_OPERATORS = new Set(['=', ',', '!', '@', '|']);
const VARSPEC =
  /^(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})(?:\.?(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2}))*(?::[1-9]\d{0,3}|\*)?$/;

function expressionProblem(body: string): string | undefined {
  if (body.includes('{')) return 'a nested "{"';
  let list = body;
  const first = body.charAt(0);
  if (RESERVED_OPERATORS.has(first)) return `the reserved operator "${first}"`;
  if (OPERATORS.has(first)) list = body.slice(1);
  if (list === '') return 'no variable';
  const bad = list.split(',').find((spec) => !VARSPEC.test(spec));
  return bad === undefined ? undefined : `the malformed variable "${bad}"`;
}
