import { describe, expect, it } from 'vitest';
import type { JsonRpcMessage } from '@rondo/protocol';
import { specMissingReason, wireProblems } from './support/wireSchema.js';

const reason = specMissingReason();
if (reason) console.warn(`skipping wire schema self-test: ${reason}`);

const answered = (method: string) => () => method;
const result = (value: Record<string, unknown>): JsonRpcMessage[] => [
  { jsonrpc: '2.0', id: 1, result: value },
];

describe.skipIf(reason !== undefined)('the wire schema check', () => {
  it('refuses members a revision lacks: icons in 2025-06-18 serverInfo', () => {
    const init = {
      protocolVersion: '2025-06-18',
      capabilities: {},
      serverInfo: { name: 'a', version: '1', icons: [] },
    };
    expect(wireProblems('2025-06-18', result(init), answered('initialize'))).not.toEqual([]);
    expect(wireProblems('2025-11-25', result(init), answered('initialize'))).toEqual([]);
  });

  it('refuses modern members and non-object structured content', () => {
    expect(
      wireProblems(
        '2025-11-25',
        result({ content: [], resultType: 'complete' }),
        answered('tools/call'),
      ),
    ).not.toEqual([]);
    expect(
      wireProblems(
        '2025-11-25',
        result({ content: [], structuredContent: 3 }),
        answered('tools/call'),
      ),
    ).not.toEqual([]);
  });

  it('refuses an elicitation mode and string defaults on 2025-06-18', () => {
    const elicit = (params: Record<string, unknown>): JsonRpcMessage[] => [
      { jsonrpc: '2.0', id: 'r', method: 'elicitation/create', params },
    ];
    const schema = { type: 'object', properties: { n: { type: 'string', default: 'x' } } };
    expect(
      wireProblems(
        '2025-06-18',
        elicit({ mode: 'form', message: 'm', requestedSchema: { type: 'object', properties: {} } }),
        answered(''),
      ),
    ).not.toEqual([]);
    expect(
      wireProblems('2025-06-18', elicit({ message: 'm', requestedSchema: schema }), answered('')),
    ).not.toEqual([]);
    expect(
      wireProblems(
        '2025-11-25',
        elicit({ mode: 'form', message: 'm', requestedSchema: schema }),
        answered(''),
      ),
    ).toEqual([]);
  });

  it('refuses modern error codes', () => {
    const error: JsonRpcMessage[] = [
      { jsonrpc: '2.0', id: 1, error: { code: -32021, message: 'x' } },
    ];
    expect(wireProblems('2025-11-25', error, answered('tools/call'))).not.toEqual([]);
  });
});
