import { describe, expect, it } from 'vitest';
import { LineFramer } from '@rondo/transport-stdio';

const bytes = (text: string) => Buffer.from(text, 'utf8');

describe('LineFramer', () => {
  it('cuts lines on newlines across chunk boundaries', () => {
    const framer = new LineFramer(1024);
    expect(framer.push(bytes('{"a":'))).toEqual([]);
    expect(framer.push(bytes('1}\n{"b":2}\n{"c"'))).toEqual([
      { kind: 'line', text: '{"a":1}' },
      { kind: 'line', text: '{"b":2}' },
    ]);
    expect(framer.push(bytes(':3}\n'))).toEqual([{ kind: 'line', text: '{"c":3}' }]);
  });

  it('reassembles a UTF-8 character split byte by byte across chunks', () => {
    const framer = new LineFramer(1024);
    const encoded = bytes('"héllo 🌍"\n');
    const events = [...encoded].flatMap((byte) => framer.push(Buffer.from([byte])));
    expect(events).toEqual([{ kind: 'line', text: '"héllo 🌍"' }]);
  });

  it('strips a carriage return before the newline and ignores blank lines', () => {
    const framer = new LineFramer(1024);
    expect(framer.push(bytes('{}\r\n\n  \r\n{}\n'))).toEqual([
      { kind: 'line', text: '{}' },
      { kind: 'line', text: '{}' },
    ]);
  });

  it('reports bytes that are not UTF-8 instead of replacing them', () => {
    const framer = new LineFramer(1024);
    expect(framer.push(Buffer.from([0x7b, 0xff, 0xfe, 0x7d, 0x0a]))).toEqual([
      { kind: 'invalidUtf8' },
    ]);
  });

  it('keeps a U+FFFD the peer sent, reports one that only stands for a bad byte, drops a BOM', () => {
    const framer = new LineFramer(1024);
    expect(framer.push(bytes('{"t":"\uFFFD"}\n'))).toEqual([
      { kind: 'line', text: '{"t":"\uFFFD"}' },
    ]);
    expect(framer.push(Buffer.from([0x22, 0xef, 0xbf, 0xbd, 0xc3, 0x22, 0x0a]))).toEqual([
      { kind: 'invalidUtf8' },
    ]);
    expect(framer.push(bytes('\uFEFF{"a":1}\r\n'))).toEqual([{ kind: 'line', text: '{"a":1}' }]);
    expect(framer.push(bytes('{"b":"\uFEFF"}\n'))).toEqual([
      { kind: 'line', text: '{"b":"\uFEFF"}' },
    ]);
  });

  it('reports an oversized line as soon as it passes the cap and skips the rest of it', () => {
    const framer = new LineFramer(10);
    expect(framer.push(bytes('123456'))).toEqual([]);
    expect(framer.push(bytes('789012'))).toEqual([{ kind: 'oversized', limit: 10 }]);
    // The remainder streams past without being kept or reported again.
    expect(framer.push(bytes('x'.repeat(10_000)))).toEqual([]);
    expect(framer.push(bytes('tail\n{"ok":1}\n'))).toEqual([{ kind: 'line', text: '{"ok":1}' }]);
  });

  it('reports an oversized line that arrives complete in one chunk', () => {
    const framer = new LineFramer(4);
    expect(framer.push(bytes('123456\n{}\n'))).toEqual([
      { kind: 'oversized', limit: 4 },
      { kind: 'line', text: '{}' },
    ]);
  });

  it('accepts a line of exactly the cap', () => {
    const framer = new LineFramer(4);
    expect(framer.push(bytes('1234\n'))).toEqual([{ kind: 'line', text: '1234' }]);
  });

  it('treats an unterminated last line as a line at end of input', () => {
    const framer = new LineFramer(1024);
    framer.push(bytes('{"last":true}'));
    expect(framer.end()).toEqual([{ kind: 'line', text: '{"last":true}' }]);
  });
});
