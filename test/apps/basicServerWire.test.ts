import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import { demoMain } from '../demo/demoProcess.js';

// Issue 27, done-when 4: the official MCP Apps example server (server-basic-vanillajs, whose App
// tool is get-time) and Rondo's App tool (the demo's show_lamp) look alike to one client: the
// same _meta.ui keys on the App tool, and the same MIME type and _meta shape on the ui://
// resource, listed and read.

const require = createRequire(import.meta.url);
/** Its bin (`mcp-server-basic-vanillajs`), beside the package's main entry in dist/. */
const BASIC_SERVER = join(
  dirname(require.resolve('@modelcontextprotocol/server-basic-vanillajs')),
  'index.js',
);
const APP_MIME_TYPE = 'text/html;profile=mcp-app';

/** What a client sees of one App server: its App tool and that tool's UI resource. */
interface AppWire {
  era: string;
  tool: { name: string; _meta?: Record<string, unknown> };
  listed: { uri: string; mimeType?: string; _meta?: Record<string, unknown> };
  read: { uri: string; mimeType?: string; text?: string; _meta?: Record<string, unknown> };
}

/** Connects the official client as an MCP Apps host would (declaring the ui extension). */
async function appsHost(command: string, args: string[], pin?: string): Promise<Client> {
  const client = new Client(
    { name: 'apps-wire-test', version: '1.0.0' },
    {
      capabilities: {
        extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: [APP_MIME_TYPE] } },
      },
      ...(pin === undefined ? {} : { versionNegotiation: { mode: { pin } } }),
    },
  );
  await client.connect(new StdioClientTransport({ command, args, stderr: 'pipe' }));
  return client;
}

/** Lists the tools and resources, picks the App tool `name`, and reads its UI resource. */
async function appWire(client: Client, name: string): Promise<AppWire> {
  const { tools } = await client.listTools();
  const tool = tools.find((entry) => entry.name === name);
  if (!tool) throw new Error(`no tool ${name} in ${tools.map((entry) => entry.name).join(', ')}`);
  const uri = (tool._meta?.ui as { resourceUri?: string } | undefined)?.resourceUri;
  if (!uri) throw new Error(`${name} has no _meta.ui.resourceUri: ${JSON.stringify(tool._meta)}`);
  const { resources } = await client.listResources();
  const listed = resources.find((entry) => entry.uri === uri);
  if (!listed) throw new Error(`${uri} is not listed`);
  const { contents } = await client.readResource({ uri });
  return {
    era: client.getProtocolEra() ?? 'none',
    tool,
    listed,
    read: contents[0] as AppWire['read'],
  };
}

let official: Client;
let rondo: Client;
let rondoModern: Client;
let basic: AppWire;
let lamp: AppWire;
let lampModern: AppWire;

beforeAll(async () => {
  const demo = [demoMain, '--stdio', '--no-prolog'];
  [official, rondo, rondoModern] = await Promise.all([
    appsHost(process.execPath, [BASIC_SERVER, '--stdio']),
    appsHost(process.execPath, demo),
    appsHost(process.execPath, demo, '2026-07-28'),
  ]);
  [basic, lamp, lampModern] = await Promise.all([
    appWire(official, 'get-time'),
    appWire(rondo, 'show_lamp'),
    appWire(rondoModern, 'show_lamp'),
  ]);
}, scaled(60_000));

afterAll(async () => {
  await Promise.all([official?.close(), rondo?.close(), rondoModern?.close()]);
});

describe('server-basic-vanillajs and a Rondo App server, to the official client', () => {
  it('tie their App tool to a ui:// resource with the same _meta keys and _meta.ui keys', () => {
    expect(basic.tool._meta?.ui).toEqual({ resourceUri: expect.stringMatching(/^ui:\/\//) });
    expect(Object.keys(lamp.tool._meta ?? {}).sort()).toEqual(
      Object.keys(basic.tool._meta ?? {}).sort(),
    );
    expect(Object.keys(lamp.tool._meta?.ui as object).sort()).toEqual(
      Object.keys(basic.tool._meta?.ui as object).sort(),
    );
    // Both also carry the deprecated flat key, equal to the nested one.
    for (const wire of [basic, lamp])
      expect(wire.tool._meta?.['ui/resourceUri']).toBe(
        (wire.tool._meta?.ui as { resourceUri: string }).resourceUri,
      );
  });

  it('list the UI resource with the App MIME type', () => {
    expect(basic.listed.mimeType).toBe(APP_MIME_TYPE);
    expect(lamp.listed.mimeType).toBe(basic.listed.mimeType);
  });

  it('read it as one HTML document of the App MIME type, at the URI asked for', () => {
    for (const wire of [basic, lamp]) {
      expect(wire.read.uri).toBe(wire.listed.uri);
      expect(wire.read.mimeType).toBe(APP_MIME_TYPE);
      expect(wire.read.text).toMatch(/^<!doctype html>/i);
    }
  });

  it('differ only where Rondo says more: a _meta.ui on the resource, which the official one omits', () => {
    // The spec lets a resource carry _meta.ui (csp, permissions, domain, prefersBorder); the
    // example server declares none, the lamp declares prefersBorder and an empty CSP.
    expect(basic.read._meta?.ui).toBeUndefined();
    expect(lamp.read._meta?.ui).toEqual({ prefersBorder: true, csp: {} });
    expect(lamp.listed._meta?.ui).toEqual(lamp.read._meta?.ui);
  });

  it('are compared on the era the client chose for both (legacy over stdio)', () => {
    expect(basic.era).toBe('legacy');
    expect(lamp.era).toBe(basic.era);
  });

  it('gives the Rondo App the same _meta on the 2026-07-28 wire', () => {
    expect(lampModern.era).toBe('modern');
    expect(lampModern.tool._meta).toEqual(lamp.tool._meta);
    expect(lampModern.listed).toEqual(lamp.listed);
    expect({ ...lampModern.read, text: undefined }).toEqual({ ...lamp.read, text: undefined });
  });
});
