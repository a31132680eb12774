import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { prologFiles } from './prologTemplate.js';
import { typescriptFiles } from './typescriptTemplate.js';
import type { ProviderKind } from './providerKind.js';
import { projectReadme } from './readme.js';
import { rangeOf } from './versions.js';

export type { ProviderKind } from './providerKind.js';

/** What to scaffold. */
export interface ScaffoldOptions {
  /** The project's folder; its last segment names the package and the server. */
  directory: string;
  kind: ProviderKind;
  /**
   * The registry `@rondo` packages come from (`npm_config_registry` when run by `npm create`);
   * unless it is npm's public one, the project gets an `.npmrc` pointing the `@rondo` scope at it,
   * so its `npm install` finds them where `npm create` found create-rondo. Default: none.
   */
  registry?: string;
  /** The `node` a desktop client should start (clients start servers with a small `PATH` of their own); default the one running now. */
  node?: string;
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
 * official MCP client, a README with the desktop-client configuration, a .gitignore, and an
 * .npmrc when the `registry` option names a registry of one's own.
 */
export function scaffoldFiles(options: ScaffoldOptions): Record<string, string> {
  const root = resolve(options.directory);
  const name = packageNameOf(root);
  const provider = options.kind === 'typescript' ? typescriptFiles(name) : prologFiles(name);
  return {
    'package.json': manifest(name, options.kind),
    'tsconfig.json': TSCONFIG,
    '.gitignore': 'node_modules/\ndist/\n',
    'README.md': projectReadme(name, options.kind, root, options.node ?? process.execPath),
    ...provider,
    ...npmrc(options.registry),
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
      '@rondo/client': rangeOf('@rondo/client'),
      '@types/node': rangeOf('@types/node'),
      typescript: rangeOf('typescript'),
    },
  };
  return `${JSON.stringify(value, null, 2)}\n`;
}

// tsconfig.json takes comments: the one option that differs from docs/install.md says why.
const TSCONFIG = `{
  "compilerOptions": {
    "strict": true,
    "target": "ES2022",
    "module": "NodeNext",
    "moduleResolution": "NodeNext",
    "types": ["node"],
    "outDir": "dist",
    "rootDir": "src",
    // Your code is checked strictly either way; this skips re-checking the declaration files of
    // dependencies (the MCP SDK's, zod's), which makes \`npm test\` about four times faster.
    // Rondo's own declarations compile without it: set it to false to check them too.
    "skipLibCheck": true
  },
  "include": ["src"]
}
`;

/** npm's public registry, which needs no `.npmrc`. */
const PUBLIC_REGISTRY = /^https?:\/\/registry\.npmjs\.org\/?$/;

function npmrc(registry: string | undefined): Record<string, string> {
  if (registry === undefined || registry === '' || PUBLIC_REGISTRY.test(registry)) return {};
  const url = registry.endsWith('/') ? registry : `${registry}/`;
  return {
    '.npmrc': `# Rondo's packages come from the registry create-rondo came from.\n@rondo:registry=${url}\n`,
  };
}
