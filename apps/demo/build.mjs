// Bundles the playground (web/) into dist/public with esbuild: one ES module plus the static files,
// and the lamp MCP App (web/apps/) into dist/apps/lamp.html: one HTML document with its script
// inlined, as the App's ui:// resource serves it (a host loads it into a frame without a server).
// The `bundle` script type-checks web/ first (esbuild does not), then runs this; both the app's
// `build` and the root build (`pnpm --filter @rondo/demo run bundle`) call it.
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, 'dist', 'public');
mkdirSync(out, { recursive: true });
await build({
  entryPoints: [join(here, 'web', 'main.ts')],
  // One entry (app.js) plus chunks loaded on demand: the MCP Apps host (the SDK's AppBridge).
  outdir: out,
  entryNames: 'app',
  chunkNames: 'chunks/[name]-[hash]',
  splitting: true,
  bundle: true,
  format: 'esm',
  target: 'es2022',
  sourcemap: true,
  minify: true,
  logLevel: 'warning',
});
for (const file of ['index.html', 'style.css'])
  copyFileSync(join(here, 'web', file), join(out, file));

// The App's script goes inline: esbuild escapes any `</script` inside it.
const lampApp = await build({
  entryPoints: [join(here, 'web', 'apps', 'lampApp.ts')],
  bundle: true,
  format: 'esm',
  target: 'es2022',
  minify: true,
  write: false,
  logLevel: 'warning',
});
const template = readFileSync(join(here, 'web', 'apps', 'lamp.html'), 'utf8');
const placeholder = '<!-- lamp app script -->';
if (!template.includes(placeholder)) throw new Error(`web/apps/lamp.html lacks ${placeholder}`);
const script = lampApp.outputFiles[0].text;
if (script.includes('</script')) throw new Error('the lamp App script contains </script');
mkdirSync(join(here, 'dist', 'apps'), { recursive: true });
writeFileSync(
  join(here, 'dist', 'apps', 'lamp.html'),
  template.replace(placeholder, () => `<script type="module">${script}</script>`),
);
