import { builtinModules } from 'node:module';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const builtins = new Set(builtinModules);

/** A bundle for a platform with no Node built-ins, and the built-ins its sources asked for. */
export interface NeutralBundle {
  code: string;
  /** `importer -> specifier` for every Node built-in an import named. */
  nodeImports: string[];
}

/**
 * Bundles `entries` (package specifiers) with esbuild for the neutral platform, the way a Worker
 * bundler does: no `node` condition, no built-ins. Built-in imports are recorded, not resolved.
 */
export async function bundleNeutral(entries: readonly string[]): Promise<NeutralBundle> {
  const nodeImports: string[] = [];
  const recordBuiltins: Plugin = {
    name: 'record-node-builtins',
    setup(builder) {
      builder.onResolve({ filter: /.*/ }, (args) => {
        const bare = args.path.replace(/^node:/, '').split('/')[0] ?? '';
        if (!args.path.startsWith('node:') && !builtins.has(bare)) return undefined;
        nodeImports.push(`${args.importer.replace(repoRoot, '')} -> ${args.path}`);
        return { path: args.path, external: true };
      });
    },
  };
  const contents = entries
    .map((entry, index) => `export * as m${index} from '${entry}';`)
    .join('\n');
  const result = await build({
    stdin: { contents, resolveDir: repoRoot, sourcefile: 'entry.js' },
    bundle: true,
    platform: 'neutral',
    mainFields: ['module', 'main'],
    format: 'iife',
    globalName: 'portable',
    write: false,
    logLevel: 'silent',
    plugins: [recordBuiltins],
  });
  return { code: result.outputFiles[0]?.text ?? '', nodeImports };
}
