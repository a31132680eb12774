import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import { Client, httpTransport } from '@rondo/client';
import { FIXTURE_MAIN, startGateway, writeConfig, type RunningGateway } from './support.js';

// Issue 26, done-when 3 for a modern upstream: its input_required rounds pass through the gateway
// as they are (withPassThrough), sealed by the upstream, so a retry that lands on another gateway
// process completes there when the upstreams share their state keys, with no call held anywhere.

const UPSTREAM_KEY = 'replica-retry-upstream-key-0123456789abcdef';

describe('a modern MRTR retry on another gateway replica', { timeout: scaled(90_000) }, () => {
  const gateways: RunningGateway[] = [];
  beforeAll(async () => {
    const config = writeConfig({
      fixture: {
        command: process.execPath,
        args: [FIXTURE_MAIN],
        env: { RONDO_STATE_KEY: UPSTREAM_KEY },
        namespace: '',
      },
    });
    gateways.push(await startGateway(config), await startGateway(config));
  });
  afterAll(async () => {
    await Promise.all(gateways.map((gateway) => gateway.close()));
  });

  it('completes a retry sent to the replica that did not see the first round', async () => {
    const [first, second] = gateways as [RunningGateway, RunningGateway];
    const landedOn: string[] = [];
    // The balancer: a call's first round goes to one replica, its retry to the other.
    const balancer: typeof fetch = (input, init) => {
      const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as never) : undefined;
      const params = (body as { params?: Record<string, unknown> } | undefined)?.params;
      const retry = params?.requestState !== undefined;
      const target = retry ? second.url : first.url;
      if ((body as { method?: string } | undefined)?.method === 'tools/call') {
        landedOn.push(retry ? 'second' : 'first');
      }
      return fetch(target, init);
    };
    const client = new Client({
      era: '2026-07-28',
      transport: httpTransport({ url: first.url, fetch: balancer }),
      handlers: { elicitation: () => ({ action: 'accept', content: { ok: true } }) },
    });
    await client.connect();
    await expect
      .poll(async () => (await client.listTools()).tools.map((tool) => tool.name))
      .toContain('test_input_required_result_request_state');
    const result = await client.callTool('test_input_required_result_request_state');
    expect(result.content[0]).toMatchObject({ type: 'text', text: 'state-ok: confirmed=true' });
    expect(landedOn).toEqual(['first', 'second']);
    await client.close();
  });
});
