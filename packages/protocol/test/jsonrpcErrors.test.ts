import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ErrorCode,
  parseMessage,
  serializeMessage,
  type JsonRpcMessage,
  type RequestId,
} from '../src/index.js';

const PARSE = ErrorCode.ParseError;
const INVALID = ErrorCode.InvalidRequest;

/** A malformed frame, the error code it must produce and the id the error response must carry. */
type Malformed = [frame: string, code: number, id: RequestId | null];

const malformed: Malformed[] = [
  // Not JSON at all: -32700, and the id cannot be known.
  ['', PARSE, null],
  ['   ', PARSE, null],
  ['{', PARSE, null],
  ['{"jsonrpc":"2.0","id":1,"method":"ping"', PARSE, null],
  ["{'jsonrpc':'2.0','id':1,'method':'ping'}", PARSE, null],
  ['{"jsonrpc":"2.0","id":1,"method":"ping"} trailing', PARSE, null],
  ['{"jsonrpc":"2.0","id":1,"method":"ping",}', PARSE, null],
  ['undefined', PARSE, null],
  ['NaN', PARSE, null],
  // Batches are not part of MCP.
  ['[]', INVALID, null],
  ['[{"jsonrpc":"2.0","id":1,"method":"ping"}]', INVALID, null],
  [
    '[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping"}]',
    INVALID,
    null,
  ],
  // The top level must be an object.
  ['1', INVALID, null],
  ['"ping"', INVALID, null],
  ['null', INVALID, null],
  ['true', INVALID, null],
  ['{}', INVALID, null],
  // jsonrpc must be exactly "2.0"; a usable id is echoed.
  ['{"jsonrpc":"1.0","id":1,"method":"ping"}', INVALID, 1],
  ['{"jsonrpc":2.0,"id":"a","method":"ping"}', INVALID, 'a'],
  ['{"id":7,"method":"ping"}', INVALID, 7],
  // The method must be a non-empty string.
  ['{"jsonrpc":"2.0","id":1,"method":""}', INVALID, 1],
  ['{"jsonrpc":"2.0","id":1,"method":42}', INVALID, 1],
  ['{"jsonrpc":"2.0","id":1,"method":null}', INVALID, 1],
  ['{"jsonrpc":"2.0","id":1,"method":["ping"]}', INVALID, 1],
  ['{"jsonrpc":"2.0","id":1}', INVALID, 1],
  // The id must be a string or a safe integer; otherwise it is unusable and the answer has id null.
  ['{"jsonrpc":"2.0","id":null,"method":"ping"}', INVALID, null],
  ['{"jsonrpc":"2.0","id":true,"method":"ping"}', INVALID, null],
  ['{"jsonrpc":"2.0","id":1.5,"method":"ping"}', INVALID, null],
  ['{"jsonrpc":"2.0","id":{},"method":"ping"}', INVALID, null],
  ['{"jsonrpc":"2.0","id":[1],"method":"ping"}', INVALID, null],
  ['{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}', INVALID, null],
  ['{"jsonrpc":"2.0","id":1e400,"method":"ping"}', INVALID, null],
  // Params must be an object.
  ['{"jsonrpc":"2.0","id":1,"method":"ping","params":[]}', INVALID, 1],
  ['{"jsonrpc":"2.0","id":1,"method":"ping","params":"x"}', INVALID, 1],
  ['{"jsonrpc":"2.0","id":1,"method":"ping","params":null}', INVALID, 1],
  ['{"jsonrpc":"2.0","id":1,"method":"ping","params":5}', INVALID, 1],
  ['{"jsonrpc":"2.0","method":"notifications/progress","params":[1]}', INVALID, null],
  // A request is not a response, and a response has exactly one of result and error.
  ['{"jsonrpc":"2.0","id":1,"method":"ping","result":{}}', INVALID, 1],
  ['{"jsonrpc":"2.0","id":1,"method":"ping","error":{"code":1,"message":"m"}}', INVALID, 1],
  ['{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"m"}}', INVALID, 1],
  // A result needs an id and an object.
  ['{"jsonrpc":"2.0","result":{}}', INVALID, null],
  ['{"jsonrpc":"2.0","id":null,"result":{}}', INVALID, null],
  ['{"jsonrpc":"2.0","id":1,"result":[]}', INVALID, 1],
  ['{"jsonrpc":"2.0","id":1,"result":"ok"}', INVALID, 1],
  // An error needs an integer code and a string message, and an id (null allowed).
  ['{"jsonrpc":"2.0","id":1,"error":{"code":"x","message":"m"}}', INVALID, 1],
  ['{"jsonrpc":"2.0","id":1,"error":{"code":1.5,"message":"m"}}', INVALID, 1],
  ['{"jsonrpc":"2.0","id":1,"error":{"code":1}}', INVALID, 1],
  ['{"jsonrpc":"2.0","id":"x","error":"bad"}', INVALID, 'x'],
  ['{"jsonrpc":"2.0","error":{"code":1,"message":"m"}}', INVALID, null],
];

const valid: string[] = [
  '{"jsonrpc":"2.0","id":1,"method":"ping"}',
  '{"jsonrpc":"2.0","id":0,"method":"ping"}',
  '{"jsonrpc":"2.0","id":-5,"method":"ping"}',
  '{"jsonrpc":"2.0","id":"","method":"ping"}',
  '{"jsonrpc":"2.0","id":"abc","method":"tools/list","params":{}}',
  '{"jsonrpc":"2.0","id":9007199254740991,"method":"ping"}',
  '  {"jsonrpc":"2.0","method":"notifications/initialized"}\n',
  '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}',
  '{"jsonrpc":"2.0","id":2,"result":{}}',
  '{"jsonrpc":"2.0","id":"r","result":{"content":[]}}',
  '{"jsonrpc":"2.0","id":3,"error":{"code":-32601,"message":"Method not found"}}',
  '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error","data":{"at":1}}}',
  '{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"é ☃ 🎼","arguments":{}}}',
];

describe('parseMessage', () => {
  it('has a table of at least 30 malformed frames', () => {
    expect(malformed.length).toBeGreaterThanOrEqual(30);
  });

  it.each(malformed)('refuses %s with code %i and id %s', (frame, code, id) => {
    const outcome = parseMessage(frame);
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.error).toMatchObject({ jsonrpc: '2.0', id, error: { code } });
    expect(outcome.error.error.message).toMatch(
      code === PARSE ? /^Parse error/ : /^Invalid Request/,
    );
  });

  it.each(valid)('accepts %s', (frame) => {
    const outcome = parseMessage(frame);
    expect(outcome).toEqual({ ok: true, message: JSON.parse(frame) });
  });
});

const text = fc.string({ unit: 'binary', maxLength: 40 });
const params = fc.dictionary(text, fc.oneof(text, fc.array(text, { maxLength: 3 })), {
  maxKeys: 6,
  noNullPrototype: true,
});
const plain = { noNullPrototype: true } as const;
const message: fc.Arbitrary<JsonRpcMessage> = fc.oneof(
  fc.record(
    {
      jsonrpc: fc.constant('2.0' as const),
      id: fc.oneof(text, fc.maxSafeInteger()),
      method: text.filter((method) => method.length > 0),
      params,
    },
    plain,
  ),
  fc.record({ jsonrpc: fc.constant('2.0' as const), method: fc.constant('n'), params }, plain),
  fc.record({ jsonrpc: fc.constant('2.0' as const), id: text, result: params }, plain),
  fc.record(
    {
      jsonrpc: fc.constant('2.0' as const),
      id: fc.constant(null),
      error: fc.record({ code: fc.integer(), message: text, data: params }, plain),
    },
    plain,
  ),
);

describe('serializeMessage', () => {
  it('never emits a raw newline or carriage return, whatever the strings in params', () => {
    fc.assert(
      fc.property(message, (value) => {
        const line = serializeMessage(value);
        expect(line).not.toMatch(/[\n\r]/);
      }),
      { numRuns: 500 },
    );
  });

  it('writes a line that parses back to the same message', () => {
    fc.assert(
      fc.property(message, (value) => {
        expect(parseMessage(serializeMessage(value))).toStrictEqual({ ok: true, message: value });
      }),
      { numRuns: 300 },
    );
  });

  it('escapes a newline inside a string instead of breaking the line', () => {
    const line = serializeMessage({ jsonrpc: '2.0', method: 'n', params: { text: 'a\nb\r\nc' } });
    expect(line).toBe('{"jsonrpc":"2.0","method":"n","params":{"text":"a\\nb\\r\\nc"}}');
  });
});
