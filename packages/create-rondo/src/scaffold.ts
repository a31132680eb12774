import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { prologFiles } from './prologTemplate.js';
import { typescriptFiles } from './typescriptTemplate.js';
import { rangeOf } from './versions.js';

/** The language the project's provider is written in. */
export type ProviderKind = 'typescript' | 'prolog';

/** What to scaffold. */
export interface ScaffoldOptions {
  /** The project's folder; its last segment names the package and the server. */
  directory: string;
  kind: ProviderKind;
}

/** A scaffold that could not be written (the folder is not empty, the name is not usable). */
export class ScaffoldError extends Error {
  override readonly name = 'ScaffoldError';
}

/** The package name a folder gives: its last segment, lower-cased, npm-safe. */
export function packageNameOf(directory: string): string {
  const base = resolve(directory).split(/[\\/]/).pop() ?? '';
  const name = base
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[._-]+/, '');
  if (name.length === 0) throw new ScaffoldError(`"${directory}" gives no usable package name`);
  return name;
}

/**
 * Every file of a new project, by path relative to its folder: package.json, tsconfig.json, the
 * provider (src/server.ts, or server.pl), a test calling its tool, prompt and resource with the
 * official MCP client, a README with the desktop-client configuration, and a .gitignore.
 */
export function scaffoldFiles(options: ScaffoldOptions): Record<string, string> {
  const root = resolve(options.directory);
  const name = packageNameOf(root);
  const provider = options.kind === 'typescript' ? typescriptFiles(name) : prologFiles(name);
  return {
    'package.json': manifest(name, options.kind),
    'tsconfig.json': TSCONFIG,
    '.gitignore': 'node_modules/\ndist/\n',
    'README.md': readme(name, options.kind, root),
    ...provider,
  };
}

/** Writes {@link scaffoldFiles} into the folder, which must be missing or empty; returns the paths. */
export function writeScaffold(options: ScaffoldOptions): string[] {
  const root = resolve(options.directory);
  if (existsSync(root) && readdirSync(root).length > 0)
    throw new ScaffoldError(`${root} is not empty; pick a new folder`);
  const files = scaffoldFiles(options);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return Object.keys(files);
}

function manifest(name: string, kind: ProviderKind): string {
  const typescript = kind === 'typescript';
  const value = {
    name,
    version: '0.1.0',
    private: true,
    type: 'module',
    scripts: {
      build: 'tsc',
      start: typescript ? 'node dist/server.js' : 'rondo-logtalk server.pl',
      test: 'tsc && node --test dist/server.test.js',
    },
    dependencies: typescript
      ? { '@rondo/server': rangeOf('@rondo/server'), zod: rangeOf('zod') }
      : { '@rondo/logtalk-host': rangeOf('@rondo/logtalk-host') },
    devDependencies: {
      '@modelcontextprotocol/sdk': rangeOf('@modelcontextprotocol/sdk'),
      '@types/node': rangeOf('@types/node'),
      typescript: rangeOf('typescript'),
    },
  };
  return `${JSON.stringify(value, null, 2)}\n`;
}

const TSCONFIG = `${JSON.stringify(
  {
    compilerOptions: {
      strict: true,
      target: 'ES2022',
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      types: ['node'],
      outDir: 'dist',
      rootDir: 'src',
      skipLibCheck: true,
    },
    include: ['src'],
  },
  null,
  2,
)}\n`;

/** The entry a desktop MCP client (Claude Desktop's `claude_desktop_config.json`) needs. */
export function desktopConfig(name: string, kind: ProviderKind, root: string): string {
  const entry =
    kind === 'typescript'
      ? { command: 'node', args: [join(root, 'dist', 'server.js')] }
      : {
          command: join(root, 'node_modules', '.bin', 'rondo-logtalk'),
          args: [join(root, 'server.pl')],
        };
  return `${JSON.stringify({ mcpServers: { [name]: entry } }, null, 2)}\n`;
}

function readme(name: string, kind: ProviderKind, root: string): string {
  const provider = kind === 'typescript' ? '`src/server.ts`' : '`server.pl` (SWI-Prolog)';
  const needs =
    kind === 'prolog'
      ? '\nThe provider needs `swipl` (Debian: `apt-get install -y swi-prolog-nox`).\n'
      : '';
  return `# ${name}

An MCP server made with \`npm create rondo\`: one tool (\`add\`), one prompt (\`greeting\`) and one
resource (\`info://about\`), in ${provider}.
${needs}
\`\`\`sh
npm install
npm test      # builds, then calls the tool, the prompt and the resource with the official MCP client
npm start     # serves over stdio
\`\`\`

A desktop MCP client (Claude Desktop's \`claude_desktop_config.json\`) starts it like this, after
\`npm run build\`:

\`\`\`json
${desktopConfig(name, kind, root).trimEnd()}
\`\`\`
`;
}
