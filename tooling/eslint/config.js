// The one lint configuration of the repository; the root eslint.config.js only re-exports it.
import tseslint from 'typescript-eslint';

// The floors of docs/architecture.md ("The layers"), enforced: a package imports only the packages
// below it. `no-restricted-imports` per directory; each block names what its floor may not reach.
const ADAPTERS = [
  '@rondo/adapter-2025',
  '@rondo/adapter-2025/*',
  '@rondo/adapter-2026',
  '@rondo/adapter-2026/*',
];
const TRANSPORTS = ['@rondo/transport-*', '@rondo/transport-*/*'];
const FACADE = ['@rondo/server', '@rondo/server/*'];
const TASKS = ['@rondo/tasks', '@rondo/tasks/*'];

/**
 * One floor: the files it covers, the import groups refused there with the reason, and single
 * names refused (`paths` entries of `no-restricted-imports`).
 */
function floor(files, refused, paths = []) {
  return {
    files,
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: refused.map(([group, message]) => ({ group, message })), paths },
      ],
    },
  };
}

const layers = [
  floor(
    ['packages/protocol/src/**/*.ts'],
    [[['@rondo/*'], 'protocol is the ground floor: it imports no other Rondo package']],
  ),
  floor(
    ['packages/core/src/**/*.ts'],
    [
      [ADAPTERS, 'core knows no era adapter (they plug into it through EraAdapter)'],
      [TRANSPORTS, 'core knows no transport (they plug into it through Endpoint)'],
      [FACADE, 'core sits below the @rondo/server facade'],
      [TASKS, 'core knows no Tasks: @rondo/tasks plugs into it through the Extension seam'],
    ],
  ),
  // Core's first floor: the contracts the rest of core and every plug-in implement (provider,
  // extension, middleware, routes) rest on @rondo/protocol alone, so nothing they describe can reach
  // back up into what implements them. zod is allowed: it is the schema language of the protocol.
  floor(
    ['packages/core/src/contracts/**/*.ts'],
    [
      [['../*', '../**'], 'core/src/contracts imports only @rondo/protocol and its own files'],
      [
        ['@rondo/*', '!@rondo/protocol', '!@rondo/protocol/*'],
        'core/src/contracts imports only @rondo/protocol and its own files',
      ],
    ],
  ),
  floor(
    ['packages/adapter-*/src/**/*.ts'],
    [
      [TRANSPORTS, 'an era adapter knows no transport (see docs/architecture.md)'],
      [FACADE, 'an era adapter sits below the @rondo/server facade'],
    ],
  ),
  floor(
    ['packages/transport-*/src/**/*.ts'],
    [
      [ADAPTERS, 'a transport names no era: it reaches them through the Endpoint of @rondo/core'],
      [FACADE, 'a transport sits below the @rondo/server facade'],
    ],
  ),
  floor(
    [
      'packages/events/src/**/*.ts',
      'packages/tasks/src/**/*.ts',
      'packages/skills/src/**/*.ts',
      'packages/apps/src/**/*.ts',
    ],
    [
      [ADAPTERS, 'an extension plugs into the eras through the Extension seam of @rondo/core'],
      [TRANSPORTS, 'an extension knows no transport: its methods run in the core pipeline'],
      [FACADE, 'an extension sits below the @rondo/server facade'],
    ],
  ),
  floor(
    ['apps/*/src/**/*.ts', 'packages/*/examples/**/*.ts'],
    [
      [ADAPTERS, 'apps and examples compose endpoints through @rondo/server (composeEndpoint)'],
      [TRANSPORTS, 'apps and examples serve through @rondo/server and its edge subpaths'],
    ],
    [
      {
        name: '@rondo/core',
        importNames: ['createEndpoint'],
        message: 'compose the endpoint with composeEndpoint from @rondo/server',
      },
    ],
  ),
];

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      '**/coverage/**',
      'tooling/node22/**',
      '**/*.js',
      '**/*.mjs',
      '**/*.cjs',
    ],
  },
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: process.cwd() },
    },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    // Tests and examples are outside each package's build; tsconfig.test.json types them all in one program.
    files: [
      '**/test/**/*.ts',
      // The private package of what package tests share.
      'packages/test-support/src/**/*.ts',
      'packages/*/examples/**/*.ts',
      'test/**/*.ts',
      'bench/**/*.ts',
      'vitest.config.ts',
      // Types of the repository scripts that tests import (tooling/scripts/nginx.mjs).
      'tooling/scripts/*.d.mts',
    ],
    languageOptions: {
      parserOptions: {
        projectService: false,
        project: ['./tsconfig.test.json'],
        tsconfigRootDir: process.cwd(),
      },
    },
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-floating-promises': 'off',
    },
  },
  ...layers,
);
