import { join } from 'node:path';
import type { ProviderKind } from './providerKind.js';

/**
 * The entry a desktop MCP client (Claude Desktop's `claude_desktop_config.json`) needs. Clients
 * start servers with a small `PATH` of their own, so `command` is an absolute `node` and the
 * server is named by its file, not through `node_modules/.bin` (whose `#!/usr/bin/env node` needs
 * `node` on that `PATH`).
 */
export function desktopConfig(
  name: string,
  kind: ProviderKind,
  root: string,
  node: string = process.execPath,
): string {
  const args =
    kind === 'typescript'
      ? [join(root, 'dist', 'server.js')]
      : [
          join(root, 'node_modules', '@rondo', 'logtalk-host', 'dist', 'main.js'),
          join(root, 'server.pl'),
        ];
  return `${JSON.stringify({ mcpServers: { [name]: { command: node, args } } }, null, 2)}\n`;
}

/** The project's README: how to test and serve it, and its desktop-client configuration. */
export function projectReadme(
  name: string,
  kind: ProviderKind,
  root: string,
  node: string,
): string {
  const typescript = kind === 'typescript';
  const provider = typescript ? '`src/server.ts`' : '`server.pl` (SWI-Prolog)';
  const needs = typescript
    ? ''
    : '\nThe provider needs `swipl` (Debian: `apt-get install -y swi-prolog-nox`).\n';
  const start = typescript
    ? 'starts `dist/server.js`, which `npm run build` (or `npm test`) compiles from `src/server.ts`:'
    : 'serves `server.pl` as it is (no build step):';
  const swipl = typescript
    ? ''
    : ' If `swipl` is not on that `PATH` either, add `"--swipl", "/absolute/path/to/swipl"` to `args`\n(`command -v swipl` prints it).\nA mistake in `server.pl` that stops the server is also the answer to the client\'s first request:\nthe client shows its `file:line` message.';
  return `# ${name}

An MCP server made with \`npm create rondo\`: one tool (\`add\`), one prompt (\`greeting\`) and one
resource (\`info://about\`), in ${provider}.
${needs}
\`\`\`sh
npm install
npm test      # compiles the test, then calls the tool, the prompt and the resource with the official MCP client
npm start     # serves over stdio
\`\`\`

A desktop MCP client (Claude Desktop's \`claude_desktop_config.json\`) ${start}

\`\`\`json
${desktopConfig(name, kind, root, node).trimEnd()}
\`\`\`

Desktop clients start servers with a small \`PATH\` of their own, often without the folder \`node\`
lives in, so \`command\` is the absolute path of the \`node\` that created this project; after
moving to another Node.js, put the path \`command -v node\` prints there.${swipl}
`;
}
