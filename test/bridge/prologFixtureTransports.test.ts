import { describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import { PROLOG_FIXTURE } from './support/paths.js';
import { RawHost } from './support/rawHost.js';
import { validatorFor } from './support/wireClient.js';

// `pnpm fixture:prolog --transport stdio`: one stdio connection carries a legacy session and modern
// requests at once. (The Prolog provider on every transport in both eras is the contract table's,
// test/contract.)

const modernMeta = (capabilities: object = {}) => ({
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': capabilities,
});

describe('the Prolog fixture over stdio', { timeout: scaled(30_000) }, () => {
  it('serves a legacy session and modern requests on one stdio connection', async () => {
    const raw = new RawHost([PROLOG_FIXTURE]);
    try {
      const init = await raw.request(1, 'initialize', {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'raw', version: '1' },
      });
      expect(init.result?.protocolVersion).toBe('2025-06-18');
      raw.notify('notifications/initialized');
      const listed = await raw.request(2, 'tools/list');
      expect(listed.result?.tools?.map((tool) => tool.name)).toContain('test_simple_text');
      const modern = await raw.request(3, 'tools/call', {
        name: 'test_input_required_result_elicitation',
        arguments: {},
        _meta: modernMeta({ elicitation: {} }),
      });
      expect(modern.result).toMatchObject({
        resultType: 'input_required',
        inputRequests: { user_name: { method: 'elicitation/create' } },
      });
      expect(await raw.end()).toBe(0);
      const legacyLines = raw.messages.filter((m) => m.id !== 3);
      expect(validatorFor('2025-06-18')?.problems(legacyLines, raw.sent) ?? []).toEqual([]);
      const modernLines = raw.messages.filter((m) => m.id === 3);
      expect(validatorFor('2026-07-28')?.problems(modernLines, raw.sent) ?? []).toEqual([]);
    } finally {
      raw.kill();
    }
  });
});
