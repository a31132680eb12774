import { describe, expect, it } from 'vitest';
import { uriTemplateProblem } from '../src/uriTemplateCheck.js';

describe('uriTemplateProblem', () => {
  it('accepts RFC 6570 templates of every level', () => {
    for (const ok of [
      'logtalk://x/{path}',
      'file:///{+path}',
      'https://h/{a,b}{?q,lang}{&x}{#frag}',
      'x://{var:3}/{list*}/{%2Fenc.sub}',
      'plain://no/variables',
    ])
      expect(uriTemplateProblem(ok)).toBeUndefined();
  });

  it('says what is wrong with a malformed one', () => {
    expect(uriTemplateProblem('logtalk://x/{path')).toBe('"{" at 13 is never closed');
    expect(uriTemplateProblem('x://a}')).toBe('"}" at 6 closes nothing');
    expect(uriTemplateProblem('x://{}')).toBe('no variable in "{}"');
    expect(uriTemplateProblem('x://{a{b}}')).toBe('a nested "{" in "{a{b}"');
    expect(uriTemplateProblem('x://{=a}')).toBe('the reserved operator "=" in "{=a}"');
    expect(uriTemplateProblem('x://{a b}')).toBe('the malformed variable "a b" in "{a b}"');
    expect(uriTemplateProblem('x://{a:0}')).toBe('the malformed variable "a:0" in "{a:0}"');
  });
});
