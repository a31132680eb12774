import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type RondoServer } from '@rondo/core';
import { runtimeOf } from '@rondo/core/internal';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { APP_MIME_TYPE, APPS_EXTENSION, appTool, apps, uiResource } from '../src/index.js';
import { htmlFile } from '../src/node.js';
import { connected } from './support.js';

const HTML = '<!doctype html><html><body><div id="lamp"></div></body></html>';
const META = {
  csp: { connectDomains: ['https://api.example.com'], resourceDomains: ['https://*.cdn.example'] },
  permissions: { clipboardWrite: true },
  domain: 'lamp.example.com',
  prefersBorder: false,
} as const;
const WIRE_UI = {
  csp: { connectDomains: ['https://api.example.com'], resourceDomains: ['https://*.cdn.example'] },
  permissions: { clipboardWrite: {} },
  domain: 'lamp.example.com',
  prefersBorder: false,
};

function lampServer(): RondoServer {
  const server = createServer({ name: 'lamp', version: '1.0.0' });
  uiResource(server, { uri: 'ui://lamp/view.html', name: 'Lamp', html: HTML, meta: META });
  appTool(
    server,
    'show_lamp',
    {
      description: 'Shows the lamp.',
      input: z.object({ color: z.enum(['green', 'red']) }),
      ui: { resourceUri: 'ui://lamp/view.html' },
    },
    ({ color }) => `The lamp is ${color}.`,
  );
  appTool(
    server,
    'toggle_lamp',
    {
      description: 'Switches the lamp.',
      ui: { resourceUri: 'ui://lamp/view.html', visibility: ['app'] },
    },
    () => 'toggled',
  );
  return server;
}

describe.each(['legacy', 'modern'] as const)('an App server on the %s wire', (era) => {
  const server = lampServer();

  it('announces io.modelcontextprotocol/ui with the App MIME type', async () => {
    const client = await connected(server, era);
    expect(client.server.capabilities.extensions?.[APPS_EXTENSION]).toEqual({
      mimeTypes: [APP_MIME_TYPE],
    });
    await client.close();
  });

  it('lists the tools with _meta.ui (and the flat ui/resourceUri), the app-only one included', async () => {
    const client = await connected(server, era);
    const { tools } = await client.listTools();
    const meta = Object.fromEntries(tools.map((tool) => [tool.name, tool._meta]));
    expect(meta.show_lamp).toEqual({
      ui: { resourceUri: 'ui://lamp/view.html' },
      'ui/resourceUri': 'ui://lamp/view.html',
    });
    expect(meta.toggle_lamp).toEqual({
      ui: { resourceUri: 'ui://lamp/view.html', visibility: ['app'] },
      'ui/resourceUri': 'ui://lamp/view.html',
    });
    await client.close();
  });

  it('calls the app-only tool like any other (the host, not the server, keeps it from the model)', async () => {
    const client = await connected(server, era);
    const result = await client.callTool('toggle_lamp');
    expect(result.content).toEqual([{ type: 'text', text: 'toggled' }]);
    await client.close();
  });

  it('lists and reads the UI resource as text/html;profile=mcp-app with _meta.ui on both', async () => {
    const client = await connected(server, era);
    const { resources } = await client.listResources();
    expect(resources).toEqual([
      { uri: 'ui://lamp/view.html', name: 'Lamp', mimeType: APP_MIME_TYPE, _meta: { ui: WIRE_UI } },
    ]);
    const read = await client.readResource('ui://lamp/view.html');
    expect(read.contents).toEqual([
      { uri: 'ui://lamp/view.html', mimeType: APP_MIME_TYPE, text: HTML, _meta: { ui: WIRE_UI } },
    ]);
    await client.close();
  });
});

describe('the App HTML', () => {
  const folder = mkdtempSync(join(tmpdir(), 'rondo-apps-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('is read from a file on every read (htmlFile)', async () => {
    const file = join(folder, 'view.html');
    writeFileSync(file, '<p>first</p>');
    const server = createServer({ name: 'files', version: '1.0.0' });
    uiResource(server, { uri: 'ui://files/view.html', name: 'View', html: htmlFile(file) });
    const client = await connected(server, 'modern');
    expect((await client.readResource('ui://files/view.html')).contents[0]).toMatchObject({
      text: '<p>first</p>',
    });
    writeFileSync(file, '<p>second</p>');
    expect((await client.readResource('ui://files/view.html')).contents[0]).toMatchObject({
      text: '<p>second</p>',
    });
    await client.close();
  });

  it('over maxBytes is refused at read time with -32603 naming the size', async () => {
    const server = createServer({ name: 'big', version: '1.0.0' });
    uiResource(server, {
      uri: 'ui://big/view.html',
      name: 'Big',
      html: () => 'x'.repeat(2048),
      maxBytes: 1024,
    });
    const client = await connected(server, 'legacy');
    await expect(client.readResource('ui://big/view.html')).rejects.toMatchObject({
      code: -32603,
      message: expect.stringContaining('2048 bytes, over the 1024-byte limit'),
    });
    await client.close();
  });
});

describe('apps()', () => {
  it('announces the MIME types given, once, even when uiResource follows', async () => {
    const server = createServer({ name: 'types', version: '1.0.0' }).use(
      apps({ mimeTypes: [APP_MIME_TYPE, 'text/html;profile=mcp-app;v=2'] }),
    );
    uiResource(server, { uri: 'ui://types/view.html', name: 'View', html: HTML });
    expect(
      runtimeOf(server).extensions.filter((extension) => extension.id === APPS_EXTENSION),
    ).toHaveLength(1);
    const client = await connected(server, 'modern');
    expect(client.server.capabilities.extensions?.[APPS_EXTENSION]).toEqual({
      mimeTypes: [APP_MIME_TYPE, 'text/html;profile=mcp-app;v=2'],
    });
    await client.close();
  });
});
