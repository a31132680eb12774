import { MetaKey, TASKS_EXTENSION } from '@rondo/protocol';
import { describe, expect, it } from 'vitest';
import {
  declaredTasks,
  headersAgree,
  mirrorsArguments,
  upstreamMeta,
  upstreamParams,
} from '../src/passThroughParams.js';

const CAPS = MetaKey.clientCapabilities;

describe('what a passed-through request sends upstream', () => {
  it('keeps the input capabilities, and the Tasks extension only when told to', () => {
    const meta = {
      [MetaKey.protocolVersion]: '2026-07-28',
      [CAPS]: {
        elicitation: {},
        extensions: { [TASKS_EXTENSION]: { x: 1 }, 'io.modelcontextprotocol/ui': {} },
      },
    };
    expect(declaredTasks(meta)).toEqual({ x: 1 });
    expect(upstreamMeta(meta, false)[CAPS]).toEqual({ elicitation: {} });
    expect(upstreamMeta(meta, true)[CAPS]).toEqual({
      elicitation: {},
      extensions: { [TASKS_EXTENSION]: { x: 1 } },
    });
    // Nothing to drop: the same object goes upstream, not a copy.
    const onlyTasks = { [CAPS]: { sampling: {}, extensions: { [TASKS_EXTENSION]: {} } } };
    expect(upstreamMeta(onlyTasks, true)).toBe(onlyTasks);
    expect(upstreamMeta(onlyTasks, false)[CAPS]).toEqual({ sampling: {} });
    const params = { name: 'greet', arguments: {}, _meta: onlyTasks };
    expect(upstreamParams(params, onlyTasks, 'greet', true)).toBe(params);
    expect(upstreamParams(params, onlyTasks, 'hello', true)).toEqual({ ...params, name: 'hello' });
  });
});

describe('headersAgree', () => {
  const agreeing = {
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': 'tasks/get',
    'mcp-name': ' abc ',
  };

  it('passes a request without headers, or whose standard headers mirror its body', () => {
    expect(headersAgree(undefined, 'tasks/get', 'abc', '2026-07-28')).toBe(true);
    expect(headersAgree(agreeing, 'tasks/get', 'abc', '2026-07-28')).toBe(true);
  });

  it('leaves any disagreement, a missing header or a mirrored argument to the pipeline', () => {
    expect(headersAgree(agreeing, 'tasks/cancel', 'abc', '2026-07-28')).toBe(false);
    expect(headersAgree(agreeing, 'tasks/get', 'abd', '2026-07-28')).toBe(false);
    expect(headersAgree(agreeing, 'tasks/get', 'abc', '2025-11-25')).toBe(false);
    expect(
      headersAgree({ ...agreeing, 'mcp-name': undefined }, 'tasks/get', 'abc', '2026-07-28'),
    ).toBe(false);
    expect(
      headersAgree({ ...agreeing, 'mcp-name': ['abc', 'abc'] }, 'tasks/get', 'abc', '2026-07-28'),
    ).toBe(false);
    expect(
      headersAgree({ ...agreeing, 'mcp-param-text': 'x' }, 'tasks/get', 'abc', '2026-07-28'),
    ).toBe(false);
  });

  it('tells a tool that mirrors an argument as a header', () => {
    const mirrored = {
      type: 'object',
      properties: { text: { type: 'string', 'x-mcp-header': 'Text' } },
    };
    expect(mirrorsArguments(mirrored)).toBe(true);
    expect(mirrorsArguments(mirrored)).toBe(true);
    expect(mirrorsArguments({ type: 'object', properties: { text: { type: 'string' } } })).toBe(
      false,
    );
  });
});
