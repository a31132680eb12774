import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_CLI, startFixtureProcess, type FixtureProcess } from './support/fixtureProcess.js';
import { REPO_ROOT, webSocketRuntimes } from './support/runtimes.js';

const run = promisify(execFile);
const SCRIPT = `${REPO_ROOT}test/ws/scripts/sdkV1Client.mjs`;
const { runtimes, missing } = webSocketRuntimes();
for (const reason of missing) console.warn(`sdk v1 WebSocket test: skipping a runtime: ${reason}`);
const built = existsSync(FIXTURE_CLI);
if (!built)
  console.warn(`sdk v1 WebSocket test skipped: the fixture is not built (${FIXTURE_CLI})`);

let fixture: FixtureProcess;
beforeAll(async () => {
  if (built) fixture = await startFixtureProcess();
});
afterAll(async () => {
  await fixture?.stop();
});

describe.skipIf(!built).each(runtimes)(
  'the official v1 SDK WebSocketClientTransport on $label',
  (runtime) => {
    it('initializes, lists and calls tools, prompts, resources, and answers legacy and shimmed elicitations', async () => {
      const { stdout } = await run(runtime.command, [...runtime.args, SCRIPT, fixture.url], {
        cwd: REPO_ROOT,
        timeout: 25_000,
      });
      const report = JSON.parse(stdout);
      expect(report.error).toBeUndefined();
      expect(report.ok).toBe(true);
      expect(report.protocol).toBe('mcp');
      expect(report.steps.serverVersion.name).toBe('rondo-conformance-fixture');
      expect(report.steps.tools).toEqual(
        expect.arrayContaining(['test_simple_text', 'test_elicitation']),
      );
      expect(report.steps.simpleText.content[0].text).toBe(
        'This is a simple text response for testing.',
      );
      expect(report.steps.prompts).toContain('test_simple_prompt');
      expect(report.steps.prompt.messages[0].content.text).toBe(
        'This is a simple prompt for testing.',
      );
      expect(report.steps.resources).toContain('test://static-text');
      expect(report.steps.resource.contents[0].text).toBe(
        'This is the content of the static text resource.',
      );
      // test_elicitation asks with a real elicitation/create over the socket.
      expect(report.elicitations[0].message).toBe('Please provide your information');
      expect(report.steps.elicitation.content[0].text).toContain('testuser');
      // The MRTR tool reaches a legacy client through the shim as a second elicitation/create.
      expect(report.elicitations[1].message).toBe('What is your name?');
      expect(report.steps.shim.content[0].text).toBe('Hello, Alice!');
    });
  },
);
