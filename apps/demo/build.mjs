// Bundles the playground (web/) into dist/public with esbuild: one ES module plus the static files.
// The `bundle` script type-checks web/ first (esbuild does not), then runs this; both the app's
// `build` and the root build (`pnpm --filter @rondo/demo run bundle`) call it.
import { copyFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, 'dist', 'public');
mkdirSync(out, { recursive: true });
await build({
  entryPoints: [join(here, 'web', 'main.ts')],
  outfile: join(out, 'app.js'),
  bundle: true,
  format: 'esm',
  target: 'es2022',
  sourcemap: true,
  minify: true,
  logLevel: 'warning',
});
for (const file of ['index.html', 'style.css'])
  copyFileSync(join(here, 'web', file), join(out, file));
