import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../src/config.js';

// Issue 40: the configs users already have (Claude Desktop, Cursor, VS Code), read strictly.

const ENV = { API_KEY: 'k-123', HOME: '/home/ada', ROOT: '/srv/data' };
const parse = (file: unknown, env: Record<string, string> = ENV, baseDir = '/etc/mcp') =>
  parseConfig(JSON.stringify(file), 'servers.json', baseDir, env);

describe('strict configuration', () => {
  it('refuses a misspelled key, naming the key meant', () => {
    const file = { mcpServers: { files: { command: 'npx', exlude: ['write_file'] } } };
    expect(() => parse(file)).toThrow(
      new ConfigError(
        'servers.json: mcpServers.files: unknown key "exlude" (did you mean "exclude"?)',
      ),
    );
    expect(() =>
      parse({ mcpServers: { web: { url: 'https://x.example/mcp', header: {} } } }),
    ).toThrow(/mcpServers\.web: unknown key "header" \(did you mean "headers"\?\)/);
    expect(() => parse({ mcpServers: { x: { command: 'a', frobnicate: 1 } } })).toThrow(
      /unknown key "frobnicate"$/,
    );
  });

  it("accepts the desktop hosts' own keys in the same entries", () => {
    const [entry] = parse({
      mcpServers: {
        files: {
          command: 'npx',
          type: 'stdio',
          alwaysAllow: ['read'],
          autoApprove: [],
          timeout: 60,
        },
      },
    });
    expect(entry).toMatchObject({ kind: 'stdio', command: 'npx' });
  });

  it('names the line and column of a syntax error, and takes comments and trailing commas', () => {
    const text = '{\n  "mcpServers": {\n    "a": { "command": "x" }\n    "b": {}\n  }\n}';
    expect(() => parseConfig(text, 'servers.json', '/')).toThrow(
      new ConfigError('servers.json:4:5: not JSON: comma expected'),
    );
    const jsonc = '{\n  // VS Code writes comments\n  "servers": { "a": { "command": "x", }, },\n}';
    expect(parseConfig(jsonc, 'mcp.json', '/')).toMatchObject([{ key: 'a', command: 'x' }]);
  });
});

describe('the shapes users have', () => {
  it("reads VS Code's servers member with its types, and expands ${env:NAME} and ${NAME}", () => {
    const entries = parse({
      inputs: [],
      servers: {
        files: {
          type: 'stdio',
          command: 'npx',
          args: ['-y', 'server-filesystem', '${env:ROOT}', '${userHome}/notes'],
          env: { TOKEN: '${API_KEY}' },
        },
        api: {
          type: 'http',
          url: 'https://api.example.com/mcp?key=${env:API_KEY}',
          headers: { Authorization: 'Bearer ${API_KEY}' },
        },
        legacy: { type: 'sse', url: 'http://127.0.0.1:3001/sse' },
        fallback: { command: '${env:MISSING_TOOL:-uvx}' },
      },
    });
    expect(entries.map((entry) => [entry.key, entry.kind])).toEqual([
      ['files', 'stdio'],
      ['api', 'remote'],
      ['legacy', 'remote'],
      ['fallback', 'stdio'],
    ]);
    expect(entries[0]).toMatchObject({
      args: ['-y', 'server-filesystem', '/srv/data', '/home/ada/notes'],
      env: { TOKEN: 'k-123' },
    });
    expect(entries[1]).toMatchObject({
      url: 'https://api.example.com/mcp?key=k-123',
      headers: { Authorization: 'Bearer k-123' },
    });
    expect(entries[1]).not.toHaveProperty('transport');
    expect(entries[2]).toMatchObject({ transport: 'sse', url: 'http://127.0.0.1:3001/sse' });
    expect(entries[3]).toMatchObject({ command: 'uvx' });
  });

  it('refuses an unset variable, an ${input:...} and a type that does not fit', () => {
    expect(() => parse({ servers: { a: { command: '${env:NOPE}' } } })).toThrow(
      new ConfigError(
        'servers.json: servers.a.command: ${env:NOPE}: the environment variable NOPE is not set',
      ),
    );
    expect(() =>
      parse({ servers: { a: { command: 'x', env: { K: '${input:api-key}' } } } }),
    ).toThrow(/servers\.a\.env\.K: \$\{input:api-key\} asks the user/);
    expect(() => parse({ servers: { a: { type: 'sse', command: 'x' } } })).toThrow(
      /servers\.a: "type": "sse" needs "url"/,
    );
    expect(() => parse({ servers: { a: { type: 'stdi', command: 'x' } } })).toThrow(
      /servers\.a\.type: "stdi" is not a transport \(stdio, http or sse\) \(did you mean "stdio"\?\)/,
    );
    expect(() => parse({ mcpServers: {}, servers: {} })).toThrow(/both mcpServers and servers/);
  });

  it("reads an entry's envFile under its own env, and ${workspaceFolder} beside .vscode", () => {
    const workspace = mkdtempSync(join(tmpdir(), 'rondo-ws-'));
    mkdirSync(join(workspace, '.vscode'));
    writeFileSync(join(workspace, '.env'), '# secrets\nTOKEN=from-file\nREGION="eu west"\n');
    const [entry] = parse(
      {
        servers: {
          a: {
            command: 'node',
            args: ['${workspaceFolder}/server.js'],
            envFile: '${workspaceFolder}/.env',
            env: { TOKEN: 'own' },
          },
        },
      },
      ENV,
      join(workspace, '.vscode'),
    );
    expect(entry).toMatchObject({
      args: [`${workspace}/server.js`],
      env: { TOKEN: 'own', REGION: 'eu west' },
    });
    expect(entry).not.toHaveProperty('envFile');
    expect(() => parse({ servers: { a: { command: 'x', envFile: 'nope.env' } } })).toThrow(
      /servers\.a\.envFile: cannot read \/etc\/mcp\/nope\.env: ENOENT/,
    );
  });
});
