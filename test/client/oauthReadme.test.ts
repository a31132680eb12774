import { spawn } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { createServer as createNetServer } from 'node:net';
import { join } from 'node:path';
import { createServer, serve, text } from '@rondo/server';
import { describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import { startAuthServer } from '../../packages/client/test/oauth/support/authorizationServer.js';
import { firstTypeScriptBlock, transpileExample } from '@rondo/test-support/readmeExample';

const packageDir = join(import.meta.dirname, '..', '..', 'packages', 'client');

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createNetServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

describe('the OAuth example of the @rondo/client README', () => {
  it(
    'signs in through a real authorization server and lists the tools of a protected Rondo server',
    { timeout: scaled(60_000) },
    async () => {
      await using as = await startAuthServer();
      let resource = '';
      const mcp = createServer({ name: 'protected', version: '1.0.0' }).tool('whoami', {}, () =>
        text('you'),
      );
      const running = await serve(mcp, {
        transport: 'http',
        auth: {
          get resource() {
            return resource;
          },
          authorizationServers: [as.issuer],
          verifyToken: (token) => {
            const grant = as.tokens.get(token);
            return grant && { subject: grant.clientId, scopes: [], audience: grant.resource };
          },
        },
      });
      resource = running.url;
      const file = join(packageDir, `.readme-oauth-${process.pid}.mjs`);
      writeFileSync(
        file,
        transpileExample(firstTypeScriptBlock(join(packageDir, 'README.md'), 'OAuth')),
      );
      try {
        const child = spawn(process.execPath, [file], {
          cwd: packageDir,
          env: { ...process.env, MCP_URL: running.url, REDIRECT_PORT: String(await freePort()) },
          stdio: ['ignore', 'pipe', 'inherit'],
        });
        let stdout = '';
        const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
        child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
          stdout += chunk;
          // The "browser": follows the printed URL, through the authorization server's redirect,
          // back to the example's loopback redirect URI.
          const url = /Open (\S+)/.exec(chunk)?.[1];
          if (url) void fetch(url).then((response) => response.text());
        });
        expect(await exited, stdout).toBe(0);
        expect(stdout).toContain('tools: whoami');
        expect(as.seen.filter((entry) => entry.path === '/token')[0]?.params.resource).toBe(
          running.url,
        );
      } finally {
        rmSync(file, { force: true });
        await running.close();
      }
    },
  );
});
