import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';

// The floors of docs/architecture.md are a lint rule (`no-restricted-imports` per directory in
// tooling/eslint/config.js), run by `pnpm lint`. Each case plants one import into the text of a
// real source file and lints that text as the file: no file is written, so a concurrent
// `pnpm lint` never sees the plant.

const root = fileURLToPath(new URL('../..', import.meta.url));
// Only the layering rule runs, without type information: what is checked is an import's path.
const eslint = new ESLint({
  cwd: root,
  ruleFilter: ({ ruleId }) => ruleId === 'no-restricted-imports',
  overrideConfig: { languageOptions: { parserOptions: { projectService: false, project: null } } },
});

/** The `no-restricted-imports` messages for `file` with `line` put in front of its text. */
async function refusals(file: string, line: string): Promise<string[]> {
  const path = join(root, file);
  const text = `${line}\n${readFileSync(path, 'utf8')}`;
  const [result] = await eslint.lintText(text, { filePath: path });
  const fatal = result!.messages.filter((message) => message.fatal);
  if (fatal.length > 0) throw new Error(`${file} did not parse: ${fatal[0]!.message}`);
  return result!.messages
    .filter((message) => message.ruleId === 'no-restricted-imports')
    .map((message) => message.message);
}

describe('the layering lint rule', { timeout: scaled(120_000) }, () => {
  it('passes the transport file as it is', async () => {
    expect(await refusals('packages/transport-http/src/fetch.ts', '')).toEqual([]);
  });

  it('fails an adapter import planted in a transport', async () => {
    const found = await refusals(
      'packages/transport-http/src/fetch.ts',
      "export { modernEra } from '@rondo/adapter-2026';",
    );
    expect(found).toHaveLength(1);
    expect(found[0]).toContain('a transport names no era');
  });

  it('fails a transport import and createEndpoint planted in an app', async () => {
    const found = await refusals(
      'apps/demo/src/serverTraffic.ts',
      "import { serveHttp } from '@rondo/transport-http';\nimport { createEndpoint } from '@rondo/core';\nvoid serveHttp;\nvoid createEndpoint;",
    );
    expect(found).toHaveLength(2);
    expect(found.join('\n')).toContain('apps and examples serve through @rondo/server');
    expect(found.join('\n')).toContain('composeEndpoint from @rondo/server');
  });

  it('passes the contracts of core as they are', async () => {
    for (const file of ['extension.ts', 'provider.ts', 'middleware.ts'])
      expect(await refusals(`packages/core/src/contracts/${file}`, '')).toEqual([]);
  });

  it('fails an import of the runtime planted in core/src/contracts', async () => {
    const found = await refusals(
      'packages/core/src/contracts/extension.ts',
      "import type { ServerRuntime } from '../runtime.js';\nexport type Planted = ServerRuntime;",
    );
    expect(found).toHaveLength(1);
    expect(found[0]).toContain('core/src/contracts imports only @rondo/protocol');
  });

  it('fails a Rondo package other than protocol planted in core/src/contracts', async () => {
    const found = await refusals(
      'packages/core/src/contracts/provider.ts',
      "import type { RequestCall } from '@rondo/core/internal';\nimport type { Json } from '@rondo/protocol';\nexport type Planted = [RequestCall, Json];",
    );
    expect(found).toHaveLength(1);
    expect(found[0]).toContain('core/src/contracts imports only @rondo/protocol');
  });

  it('fails a transport import planted in core', async () => {
    const found = await refusals(
      'packages/core/src/limits.ts',
      "import type { FetchHandler } from '@rondo/transport-http/fetch';\nexport type Planted = FetchHandler;",
    );
    expect(found.join('\n')).toContain('core knows no transport');
  });

  it('fails a @rondo/tasks import planted in core, and an adapter import planted in tasks', async () => {
    const inCore = await refusals(
      'packages/core/src/limits.ts',
      "import type { TaskStore } from '@rondo/tasks';\nexport type Planted = TaskStore;",
    );
    expect(inCore.join('\n')).toContain('core knows no Tasks');
    expect(await refusals('packages/tasks/src/taskWire.ts', '')).toEqual([]);
    const inTasks = await refusals(
      'packages/tasks/src/taskWire.ts',
      "export { modernEra } from '@rondo/adapter-2026';",
    );
    expect(inTasks.join('\n')).toContain(
      'an extension plugs into the eras through the Extension seam',
    );
  });

  it.each(['packages/skills/src/index.ts', 'packages/apps/src/index.ts'])(
    'fails a transport import planted in the extension %s',
    async (file) => {
      expect(await refusals(file, '')).toEqual([]);
      const planted = await refusals(
        file,
        "export { stdioTransport } from '@rondo/transport-stdio';",
      );
      expect(planted.join('\n')).toContain('an extension knows no transport');
    },
  );
});
