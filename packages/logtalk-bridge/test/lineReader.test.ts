import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readLines } from '../src/lineReader.js';

function reader(maxBytes: number) {
  const stream = new PassThrough();
  const lines: string[] = [];
  const overflows: number[] = [];
  readLines(stream, maxBytes, {
    line: (text) => lines.push(text),
    overflow: (size) => overflows.push(size),
  });
  return { stream, lines, overflows };
}

describe('readLines', () => {
  it('splits lines across chunks, drops a carriage return before the newline, keeps UTF-8 whole', () => {
    const { stream, lines } = reader(100);
    stream.write(Buffer.from('{"a":1}\r\n{"b":"h'));
    stream.write(Buffer.from('é\r"}\n\r\n', 'utf8'));
    expect(lines).toEqual(['{"a":1}', '{"b":"hé\r"}', '']);
  });

  it('reports a line longer than the cap once, and no line after it', () => {
    const { stream, lines, overflows } = reader(8);
    stream.write(Buffer.from('short\n0123456789\nnext\n'));
    expect(lines).toEqual(['short']);
    expect(overflows).toEqual([10]);
  });
});
