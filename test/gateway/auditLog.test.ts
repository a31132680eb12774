import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, httpTransport } from '@rondo/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import { FIXTURE_MAIN, startGateway, writeConfig, type RunningGateway } from './support.js';

// Issue 40, done-when 6: the audit log's lines for a call, a refused call and a round trip.

const ELICITING = 'fixture_test_input_required_result_elicitation';
const HOSTILE = fileURLToPath(new URL('./hostileUpstream.mjs', import.meta.url));
const auditFile = join(mkdtempSync(join(tmpdir(), 'rondo-audit-')), 'audit.jsonl');
let gateway: RunningGateway;
beforeAll(async () => {
  const config = writeConfig({
    fixture: {
      command: process.execPath,
      args: [FIXTURE_MAIN],
      env: { RONDO_STATE_KEY: 'rondo-gateway-upstream-state-key-0123456789' },
    },
    slow: { command: process.execPath, args: [HOSTILE], timeoutMs: 500 },
  });
  gateway = await startGateway(config, ['--audit', auditFile]);
}, scaled(60_000));
afterAll(async () => {
  await gateway?.close();
});

type AuditLine = Record<string, unknown>;
const auditLines = (): AuditLine[] =>
  (existsSync(auditFile) ? readFileSync(auditFile, 'utf8') : '')
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as AuditLine);

/** The lines written after `from`, once there are `count` of them. */
async function linesAfter(from: number, count: number): Promise<AuditLine[]> {
  await expect
    .poll(() => auditLines().length, { timeout: 10_000 })
    .toBeGreaterThanOrEqual(from + count);
  return auditLines().slice(from);
}

const common = {
  time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
  audit: 'call',
  principal: null,
  upstream: 'fixture',
  method: 'tools/call',
  durationMs: expect.any(Number),
};

describe.each([
  ['2026-07-28', 'pass-through'],
  ['2025-11-25', 'translated'],
] as const)('the audit log, for a %s caller', { timeout: 60_000 }, (era, path) => {
  it('writes one line per call, refused call and round, never arguments or results', async () => {
    const client = new Client({
      transport: httpTransport({ url: gateway.url.href }),
      era,
      clientInfo: { name: 'audit-test', version: '1.2' },
      handlers: {
        elicitation: () => ({
          action: 'accept',
          content: { name: 'Ada Secret' },
        }),
      },
    });
    await client.connect();
    const from = auditLines().length;
    await client.callTool('fixture_test_simple_text');
    const refused = await client.callTool('fixture_test_error_handling');
    expect(refused.isError).toBe(true);
    await expect(client.callTool('slow_hang')).rejects.toMatchObject({ code: -32603 });
    const answered = await client.callTool(ELICITING);
    expect(JSON.stringify(answered.content)).toContain('Hello, Ada Secret!');
    await client.close();
    const lines = await linesAfter(from, 5);
    const caller = { client: 'audit-test 1.2', path };
    expect(lines).toEqual([
      { ...common, ...caller, name: 'test_simple_text', outcome: 'ok', round: 1 },
      { ...common, ...caller, name: 'test_error_handling', outcome: 'tool_error', round: 1 },
      {
        ...common,
        client: 'audit-test 1.2',
        // A legacy upstream: every caller takes the translating path to it.
        path: 'translated',
        upstream: 'slow',
        name: 'hang',
        outcome: 'error',
        error: { code: -32603, message: 'Upstream "slow" did not answer tools/call within 500 ms' },
        round: 1,
      },
      {
        ...common,
        ...caller,
        name: 'test_input_required_result_elicitation',
        outcome: 'input_required',
        round: 1,
      },
      {
        ...common,
        ...caller,
        name: 'test_input_required_result_elicitation',
        outcome: 'ok',
        round: 2,
      },
    ]);
    const text = readFileSync(auditFile, 'utf8');
    expect(text).not.toContain('Ada Secret');
  });
});
