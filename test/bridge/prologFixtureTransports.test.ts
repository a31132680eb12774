import { Client as ModernClient } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WsClientTransport } from '../ws/support/wsClientTransport.js';
import type { WireMessage } from '../stdio/support/wire.js';
import { startHostProcess, type HostProcess } from './support/hostProcess.js';
import { PROLOG_FIXTURE } from './support/paths.js';
import { RawHost } from './support/rawHost.js';
import { validatorFor } from './support/wireClient.js';

// `pnpm fixture:prolog --transport stdio|ws` (HTTP is what the conformance runs use): the Prolog
// fixture answers on every transport, in both eras.

const modernMeta = (capabilities: object = {}) => ({
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': capabilities,
});

describe('the Prolog fixture over stdio', { timeout: 30_000 }, () => {
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

describe('the Prolog fixture over WebSocket', { timeout: 30_000 }, () => {
  let server: HostProcess;
  beforeAll(async () => {
    server = await startHostProcess('ws', [PROLOG_FIXTURE]);
  });
  afterAll(() => server?.stop());

  it('serves the v2 client: progress, then the result; rounds; list changes on listen', async () => {
    const client = new ModernClient(
      { name: 'bridge-ws-test', version: '1.0.0' },
      {
        capabilities: { elicitation: { form: {} } },
        versionNegotiation: { mode: { pin: '2026-07-28' } },
      },
    );
    client.setRequestHandler('elicitation/create', async () => ({
      action: 'accept',
      content: { name: 'Alice' },
    }));
    const transport = new WsClientTransport(server.url);
    await client.connect(transport);
    try {
      const events: string[] = [];
      await client.callTool(
        { name: 'test_tool_with_progress', arguments: {} },
        { onprogress: (update) => events.push(`progress ${update.progress}`) },
      );
      events.push('result');
      expect(events).toEqual(['progress 0', 'progress 50', 'progress 100', 'result']);
      const greeted = await client.callTool({
        name: 'test_input_required_result_elicitation',
        arguments: {},
      });
      expect(greeted.content).toEqual([{ type: 'text', text: 'Hello, Alice!' }]);
      let changes = 0;
      client.setNotificationHandler('notifications/tools/list_changed', () => {
        changes += 1;
      });
      const subscription = await client.listen({ toolsListChanged: true });
      await client.callTool({ name: 'test_trigger_tool_change', arguments: {} });
      for (let i = 0; i < 100 && changes === 0; i++) await new Promise((r) => setTimeout(r, 20));
      expect(changes).toBe(1);
      await subscription.close();
    } finally {
      await client.close();
    }
    const received = transport.received as WireMessage[];
    const sent = transport.sent as WireMessage[];
    expect(validatorFor('2026-07-28')?.problems(received, sent) ?? []).toEqual([]);
  });
});
