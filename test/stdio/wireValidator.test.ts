import { describe, expect, it } from 'vitest';
import { WireValidator } from '@rondo/test-support/specSchemas';
import type { WireMessage } from './support/wire.js';

/** A message as it might (wrongly) appear on the wire. */
const raw = (message: object) => message as WireMessage;

// The schema checks of the other stdio suites are only as good as this validator: it must catch
// the mistakes that matter per revision.

const modern = WireValidator.load('2026-07-28');
const legacy = WireValidator.load('2025-06-18');
const call = [{ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 't' } }];
const content = [{ type: 'text', text: 'hi' }];

describe.skipIf(!modern || !legacy)('WireValidator', () => {
  it('requires resultType on a 2026-07-28 tools/call result', () => {
    // Both the result envelope and CallToolResult require it.
    const problems = modern!.problems([{ jsonrpc: '2.0', id: 1, result: { content } }], call);
    expect(problems.map((problem) => problem.split(':')[0])).toEqual([
      'JSONRPCResultResponse',
      'CallToolResult',
    ]);
    expect(
      modern!.problems(
        [{ jsonrpc: '2.0', id: 1, result: { content, resultType: 'complete' } }],
        call,
      ),
    ).toEqual([]);
  });

  it('checks an input_required result against InputRequiredResult', () => {
    const bad = raw({
      jsonrpc: '2.0',
      id: 1,
      result: { resultType: 'input_required', requestState: 42 },
    });
    expect(modern!.problems([bad], call)).toHaveLength(1);
  });

  it('checks a 2025-06-18 tool result and notification by their definitions', () => {
    expect(
      legacy!.problems([raw({ jsonrpc: '2.0', id: 1, result: { content: 'nope' } })], call),
    ).toHaveLength(1);
    const progress = { jsonrpc: '2.0', method: 'notifications/progress', params: { progress: 1 } };
    expect(legacy!.problems([progress], [])).toHaveLength(1);
  });

  it('accepts a JSON-RPC parse error with id null', () => {
    const parseError = {
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700, message: 'Parse error' },
    };
    expect(modern!.problems([parseError], [])).toEqual([]);
  });
});
