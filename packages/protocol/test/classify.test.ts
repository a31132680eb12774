import { describe, expect, it } from 'vitest';
import { MetaKey, classifyMessage, type JsonRpcMessage, type MessageClass } from '../src/index.js';

const modernMeta = {
  [MetaKey.protocolVersion]: '2026-07-28',
  [MetaKey.clientCapabilities]: {},
};

const cases: [string, JsonRpcMessage, MessageClass][] = [
  [
    'a request whose _meta names a protocol version',
    { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: modernMeta } },
    'modern',
  ],
  [
    'an initialize that carries modern _meta (modern wins, never served as legacy)',
    { jsonrpc: '2.0', id: 1, method: 'initialize', params: { _meta: modernMeta } },
    'modern',
  ],
  [
    'a modern request naming a version Rondo does not serve (validated later, strictly)',
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/list',
      params: { _meta: { [MetaKey.protocolVersion]: '1900-01-01' } },
    },
    'modern',
  ],
  [
    'a notification whose _meta names a protocol version',
    { jsonrpc: '2.0', method: 'notifications/cancelled', params: { _meta: modernMeta } },
    'modern',
  ],
  [
    'initialize without modern _meta',
    {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'c', version: '1' },
      },
    },
    'initialize',
  ],
  ['a request without params', { jsonrpc: '2.0', id: 2, method: 'ping' }, 'session'],
  [
    'a request whose _meta has only a progress token',
    {
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: { name: 't', _meta: { progressToken: 1 } },
    },
    'session',
  ],
  [
    'a request whose _meta is not an object',
    { jsonrpc: '2.0', id: 4, method: 'tools/list', params: { _meta: [MetaKey.protocolVersion] } },
    'session',
  ],
  [
    'a request with the version outside _meta',
    {
      jsonrpc: '2.0',
      id: 5,
      method: 'tools/list',
      params: { [MetaKey.protocolVersion]: '2026-07-28' },
    },
    'session',
  ],
  ['a legacy notification', { jsonrpc: '2.0', method: 'notifications/initialized' }, 'session'],
  ['a result response', { jsonrpc: '2.0', id: 6, result: {} }, 'session'],
  [
    'an error response',
    { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } },
    'session',
  ],
];

describe('classifyMessage', () => {
  it.each(cases)('classifies %s', (_what, message, expected) => {
    expect(classifyMessage(message)).toBe(expected);
  });
});
