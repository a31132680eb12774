import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Absolute roots, so a run started from a package folder (`pnpm --filter @rondo/core test`) finds them.
const repoRoot = fileURLToPath(new URL('.', import.meta.url));

// One run over every package: each folder with tests is a project, so `--project core` narrows it.
// Projects extend this file, so the timeouts below hold however a run is filtered.
const projects = [
  'protocol',
  'core',
  'adapter-2026',
  'adapter-2025',
  'transport-stdio',
  'transport-http',
  'transport-ws',
  'server',
  'logtalk-bridge',
  'otel',
  'create-rondo',
].map((name) => ({
  extends: true as const,
  test: { name, root: `${repoRoot}packages/${name}`, include: ['test/**/*.test.ts'] },
}));

// The HTTP test table runs once more over each other edge of the same transport (the fetch
// handler on Node, Hono, Fastify); the node-server-only tests stay in the first run.
const httpEdges = ['fetch', 'hono', 'fastify'].map((edge) => ({
  extends: true as const,
  test: {
    name: `transport-http@${edge}`,
    root: `${repoRoot}packages/transport-http`,
    include: ['test/**/*.test.ts'],
    exclude: [
      'test/connectionLimits.test.ts',
      'test/expressRouter.test.ts',
      'test/eventStore.test.ts',
    ],
    env: { RONDO_HTTP_EDGE: edge },
  },
}));

const reportFile = process.env.RONDO_TEST_REPORT;

export default defineConfig({
  test: {
    projects: [
      ...projects,
      ...httpEdges,
      {
        extends: true as const,
        test: { name: 'apps', root: repoRoot, include: ['apps/*/test/**/*.test.ts'] },
      },
      {
        extends: true as const,
        test: { name: 'integration', root: repoRoot, include: ['test/**/*.test.ts'] },
      },
    ],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: reportFile ? ['default', 'json'] : ['default'],
    ...(reportFile ? { outputFile: { json: reportFile } } : {}),
  },
});
