import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import { hostStdioParams } from './support/birds.js';
import { logtalkHomeForTests } from './support/paths.js';

// Issue 29: a failed `--watch` reload reaches the legacy sessions that enabled logging, not stderr only.

logtalkHomeForTests();
const dir = mkdtempSync(join(tmpdir(), 'rondo-watch-log-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SOUND = `:- module(live, []).

tools([tool(version, version, 1)]).

:- mode(version(-atom), one).
version(v1).
`;

// Line 6 lacks its closing parenthesis: a syntax error the reload reports at that line.
const BROKEN = `:- module(live, []).

tools([tool(version, version, 1)]).

:- mode(version(-atom), one).
version(v2 :- true.
`;

describe('rondo-logtalk --watch, a reload that fails', { timeout: scaled(60_000) }, () => {
  it('sends a legacy client that set its log level a notifications/message at error with file:line', async () => {
    const live = join(dir, 'live.pl');
    writeFileSync(live, SOUND);
    const client = new Client({ name: 'watch-log', version: '1.0.0' });
    const transport = new StdioClientTransport(hostStdioParams([live], ['--watch']));
    await client.connect(transport);
    try {
      await client.setLoggingLevel('error');
      const logged = new Promise<{ level: string; data: unknown; logger?: string }>((resolve) =>
        client.setNotificationHandler(LoggingMessageNotificationSchema, (note) =>
          resolve(note.params),
        ),
      );
      writeFileSync(live, BROKEN);
      const message = await logged;
      expect(message.level).toBe('error');
      expect(message.logger).toBe('rondo-logtalk');
      expect(message.data).toEqual(
        expect.stringMatching(
          new RegExp(`^reload failed, still serving the previous code: .*${live}:6\\b`),
        ),
      );
      // The previous code still serves.
      expect((await client.callTool({ name: 'version', arguments: {} })).structuredContent).toEqual(
        { arg1: 'v1' },
      );
    } finally {
      await client.close();
    }
  });
});
