import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createLogtalkHost } from '@rondo/logtalk-host';
import { PrologProviderError } from '@rondo/logtalk-bridge';
import { serveHttp, type HttpServerHandle } from '@rondo/transport-http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import { tapHttp, type HttpTap } from './support/httpTap.js';
import { logtalkHomeForTests, wireFixture } from './support/paths.js';
import { hostProlog, type HostedProlog } from './support/prologHost.js';
import { validatorFor } from './support/wireClient.js';

// Issue 27, done-when 2: the MCP Apps hooks of Logtalk's mcp_ui_protocol (tool_ui/2,
// resource_ui_meta/2, `ui` in capabilities/1), declared by a Logtalk object and by an SWI module,
// reach the official clients of both eras as the same `_meta.ui`; a malformed declaration is a
// one-line file:line message at start.

logtalkHomeForTests();
const dir = mkdtempSync(join(tmpdir(), 'rondo-apps-prolog-'));
const PAGE = 'ui://board/view.html';
const RESOURCE_UI = {
  csp: {
    connectDomains: ['https://api.example.com'],
    resourceDomains: ['https://cdn.example.com'],
  },
  permissions: { clipboardWrite: {} },
  prefersBorder: true,
};

const served: { host: HostedProlog; http: HttpServerHandle }[] = [];
const taps: { revision: '2025-11-25' | '2026-07-28'; tap: HttpTap }[] = [];
let urls: Record<'module' | 'object', URL>;
beforeAll(async () => {
  const serve = async (file: string) => {
    const host = await hostProlog([wireFixture(file)], { workers: 1 });
    const http = await serveHttp(host.endpoint, { port: 0 });
    served.push({ host, http });
    return new URL(http.url);
  };
  const [module, object] = await Promise.all([serve('apps.pl'), serve('apps.lgt')]);
  urls = { module: module, object: object };
}, scaled(60_000));
afterAll(async () => {
  for (const { host, http } of served) {
    await http.close();
    await host.close();
  }
  rmSync(dir, { recursive: true, force: true });
});

/** What a client sees of the App: the ui capability, the tools' and the page's `_meta.ui`. */
interface AppView {
  extension: unknown;
  tools: Record<string, unknown>;
  listed: unknown;
  read: { mimeType?: string; meta: unknown };
}

async function legacyView(url: URL): Promise<AppView> {
  const tap = tapHttp();
  taps.push({ revision: '2025-11-25', tap });
  const client = new V1Client({ name: 'apps-legacy-test', version: '1.0.0' });
  await client.connect(new V1HttpTransport(url, { fetch: tap.fetch }));
  try {
    const capabilities = client.getServerCapabilities() as { extensions?: Record<string, unknown> };
    const { tools } = await client.listTools();
    const { resources } = await client.listResources();
    const { contents } = await client.readResource({ uri: PAGE });
    return viewOf(capabilities.extensions, tools, resources, contents);
  } finally {
    await client.close();
  }
}

async function modernView(url: URL): Promise<AppView> {
  const tap = tapHttp();
  taps.push({ revision: '2026-07-28', tap });
  const client = new Client(
    { name: 'apps-modern-test', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(new StreamableHTTPClientTransport(url, { fetch: tap.fetch }));
  try {
    const capabilities = client.getServerCapabilities() as { extensions?: Record<string, unknown> };
    const { tools } = await client.listTools();
    const { resources } = await client.listResources();
    const { contents } = await client.readResource({ uri: PAGE });
    return viewOf(capabilities.extensions, tools, resources, contents);
  } finally {
    await client.close();
  }
}

type WithMeta = { _meta?: Record<string, unknown> };

function viewOf(
  extensions: Record<string, unknown> | undefined,
  tools: ({ name: string } & WithMeta)[],
  resources: ({ uri: string } & WithMeta)[],
  contents: ({ uri: string; mimeType?: string } & WithMeta)[],
): AppView {
  const page = contents.find((content) => content.uri === PAGE);
  return {
    extension: extensions?.['io.modelcontextprotocol/ui'],
    tools: Object.fromEntries(tools.map((tool) => [tool.name, tool._meta?.ui])),
    listed: resources.find((resource) => resource.uri === PAGE)?._meta?.ui,
    read: { mimeType: page?.mimeType, meta: page?._meta?.ui },
  };
}

describe('MCP Apps declared by a Prolog provider', { timeout: scaled(60_000) }, () => {
  it('reach both eras with the same _meta.ui, from a Logtalk object and an SWI module alike', async () => {
    const views = {
      moduleLegacy: await legacyView(urls.module),
      moduleModern: await modernView(urls.module),
      objectLegacy: await legacyView(urls.object),
      objectModern: await modernView(urls.object),
    };
    const expected: AppView = {
      extension: { mimeTypes: ['text/html;profile=mcp-app'] },
      tools: {
        show_board: { resourceUri: PAGE, visibility: ['model', 'app'] },
        refresh_board: { visibility: ['app'] },
      },
      listed: RESOURCE_UI,
      read: { mimeType: 'text/html;profile=mcp-app', meta: RESOURCE_UI },
    };
    for (const [name, view] of Object.entries(views)) expect(view, name).toEqual(expected);
    for (const { revision, tap } of taps.splice(0))
      expect(validatorFor(revision)?.problems(await tap.received(), tap.sent) ?? []).toEqual([]);
  });

  it('refuses malformed tool_ui/2 and resource_ui_meta/2 at start, one line each at its clause', async () => {
    const path = join(dir, 'bad_apps.pl');
    writeFileSync(
      path,
      [
        ':- module(bad_apps, []).',
        'capabilities([ui]).',
        'tools([tool(board, board, 0)]).',
        'board.',
        "resources([resource('ui://board', board, 'Board', 'text/html;profile=mcp-app')]).",
        'tool_ui(board, [visibility(foo)]).',
        "tool_ui(nothing, [resource_uri('ui://board')]).",
        "tool_ui(board, [resource_uri('https://example.com/board')]).",
        "resource_ui_meta('ui://board', {prefers_border- @true}).",
        '',
      ].join('\n'),
    );
    const failure = await createLogtalkHost({ files: [path], workers: 1 }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(PrologProviderError);
    expect((failure as PrologProviderError).lines).toEqual([
      `${path}:6: tool_ui(board, _): visibility(foo) is not a list of model and app; expected visibility([model]), visibility([app]) or visibility([model, app])`,
      `${path}:7: tool_ui(nothing, _) names a tool that tools/1 does not list; expected the name of a listed tool`,
      `${path}:8: tool_ui(board, _): resource_uri('https://example.com/board') is not a ui:// URI; expected resource_uri('ui://...')`,
      `${path}:9: resource_ui_meta('ui://board', _): the unknown member prefers_border; expected csp, permissions, domain or prefersBorder`,
    ]);
  });

  it('refuses a Logtalk object whose tool_ui/2 is malformed, at its clause', async () => {
    const path = join(dir, 'bad_apps.lgt');
    writeFileSync(
      path,
      [
        ':- object(bad_apps, implements([mcp_tool_protocol, mcp_ui_protocol])).',
        '\ttools([tool(board, board, 0)]).',
        '\t:- public(board/0).',
        '\tboard.',
        '\ttool_ui(board, [visibility([model, user])]).',
        ':- end_object.',
        '',
      ].join('\n'),
    );
    const failure = await createLogtalkHost({ files: [path], workers: 1 }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(PrologProviderError);
    expect((failure as PrologProviderError).lines).toEqual([
      `${path}:5: tool_ui(board, _): visibility([model,user]) is not a list of model and app; expected visibility([model]), visibility([app]) or visibility([model, app])`,
    ]);
  });
});
