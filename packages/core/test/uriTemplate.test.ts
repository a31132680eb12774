import { describe, expect, it } from 'vitest';
import { compileTemplate } from '@rondo/core/internal';

describe('compileTemplate', () => {
  it('matches a URI and extracts its variables', () => {
    const template = compileTemplate('test://template/{id}/data');
    expect(template.variables).toEqual(['id']);
    expect(template.match('test://template/42/data')).toEqual({ id: '42' });
  });

  it('does not match URIs of another shape', () => {
    const template = compileTemplate('test://template/{id}/data');
    expect(template.match('test://template/42')).toBeUndefined();
    expect(template.match('test://template/a/b/data')).toBeUndefined();
    expect(template.match('other://template/1/data')).toBeUndefined();
  });

  it('handles several variables and query expansion', () => {
    const template = compileTemplate('files://{dir}/{name}{?rev}');
    expect(template.match('files://docs/readme?rev=3')).toEqual({
      dir: 'docs',
      name: 'readme',
      rev: '3',
    });
  });
});
