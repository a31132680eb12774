import { runtimeOf } from '@rondo/core/internal';
import { describe, expect, it } from 'vitest';
import { complete, contents, message, messages, text, textContent } from '@rondo/protocol';
import {
  ConfigurationError,
  MountConflictError,
  ToolDefinitionError,
  createServer,
  requireScopes,
  type Provider,
  type RondoServer,
  type ServerChange,
} from '@rondo/core';
import { testContext } from './testContext.js';

// Issue 26, Mount: `server.mount(other, { namespace })` offers another Rondo server's items under
// the namespace, and refuses a name offered twice where the mistake is made.

const quiet = { log: () => undefined };
const ctx = testContext();

function weather(): RondoServer {
  return createServer({ name: 'weather', version: '1.0.0', ...quiet })
    .tool('get', { description: 'The weather' }, () => text('sunny'))
    .prompt('ask', { arguments: [{ name: 'city', required: true }] }, ({ city }) =>
      messages([message('user', `Weather in ${city}?`)]),
    )
    .resource('file:///today.txt', { name: 'today' }, (uri) =>
      contents([textContent(uri, 'text/plain', 'rain')]),
    )
    .resourceTemplate('file:///days/{day}', { name: 'day' }, (uri, { day }) =>
      contents([textContent(uri, 'text/plain', `day ${String(day)}`)]),
    )
    .completion({ prompt: 'ask' }, 'city', (value) =>
      ['Oslo', 'Bergen'].filter((c) => c.startsWith(value)),
    );
}

function host(): RondoServer {
  return createServer({ name: 'main', version: '1.0.0', ...quiet }).tool('hello', {}, () =>
    text('hi'),
  );
}

const names = (server: RondoServer) => ({
  tools: runtimeOf(server).catalog.tools.map((e) => e.definition.name),
  prompts: runtimeOf(server).catalog.prompts.map((e) => e.definition.name),
  resources: runtimeOf(server).catalog.resources.map((e) => e.definition.uri),
  templates: runtimeOf(server).catalog.templates.map((e) => e.definition.uriTemplate),
});

describe('mount: names', () => {
  it('prefixes tools and prompts with the namespace and "_", and keeps URIs by default', async () => {
    const main = host().mount(weather(), { namespace: 'weather' });
    await runtimeOf(main).ready();
    expect(names(main)).toEqual({
      tools: ['hello', 'weather_get'],
      prompts: ['weather_ask'],
      resources: ['file:///today.txt'],
      templates: ['file:///days/{day}'],
    });
    expect(runtimeOf(main).catalog.tool('weather_get')?.definition.description).toBe('The weather');
  });

  it('prefixes URI schemes with the namespace and "+" when asked', async () => {
    const main = host().mount(weather(), { namespace: 'weather', resources: 'prefix' });
    await runtimeOf(main).ready();
    expect(names(main).resources).toEqual(['weather+file:///today.txt']);
    expect(names(main).templates).toEqual(['weather+file:///days/{day}']);
    expect(await runtimeOf(main).readResource('weather+file:///days/3', ctx)).toEqual(
      complete(contents([textContent('weather+file:///days/3', 'text/plain', 'day 3')])),
    );
    expect(await runtimeOf(main).readResource('file:///today.txt', ctx)).toBeUndefined();
  });

  it('keeps every name without a namespace', async () => {
    const main = host().mount(weather());
    await runtimeOf(main).ready();
    expect(names(main).tools).toEqual(['hello', 'get']);
  });

  it.each([
    ['1weather', /a namespace is 1 to 64 characters/],
    ['we ather', /a namespace is 1 to 64 characters/],
    ['my_ns', /a namespace is 1 to 64 characters/],
  ])('refuses the namespace %j', (namespace, message) => {
    expect(() => host().mount(weather(), { namespace })).toThrow(message);
  });

  it('refuses prefixed resources without a namespace, and a prefixed tool name that breaks the tool rule', () => {
    expect(() => host().mount(weather(), { resources: 'prefix' })).toThrow(ConfigurationError);
    const long = createServer({ name: 'long', version: '1', ...quiet }).tool(
      'x'.repeat(120),
      {},
      () => text(''),
    );
    expect(() => host().mount(long, { namespace: 'namespace' })).toThrow(ToolDefinitionError);
  });

  it('refuses a server mounting itself or a server that contains it', () => {
    const main = host();
    expect(() => main.mount(main, { namespace: 'me' })).toThrow(/cannot mount a server/);
    const inner = weather();
    main.mount(inner, { namespace: 'weather' });
    expect(() => inner.mount(main, { namespace: 'up' })).toThrow(/cannot mount a server/);
  });
});

describe('mount: a name offered twice is an error where it is made', () => {
  const conflict = (run: () => unknown): MountConflictError => {
    try {
      run();
    } catch (failure) {
      expect(failure).toBeInstanceOf(MountConflictError);
      return failure as MountConflictError;
    }
    throw new Error('no MountConflictError');
  };

  it('at mount time, naming both items and their servers', () => {
    const main = host().tool('weather_get', {}, () => text('mine'));
    const error = conflict(() => main.mount(weather(), { namespace: 'weather' }));
    expect(error.message).toBe(
      'mount conflict: tool "weather_get" would be offered twice, by the tool "weather_get" of server "main" and by the tool "get" of server "weather"; rename one or mount with another namespace',
    );
    expect(error).toMatchObject({
      kind: 'tool',
      offeredAs: 'weather_get',
      existing: { server: 'main', name: 'weather_get' },
      incoming: { server: 'weather', name: 'get' },
    });
  });

  it('for kept resource URIs and templates, and between two mounts', () => {
    const main = host().resource('file:///today.txt', { name: 'mine' }, (uri) =>
      contents([textContent(uri, 'text/plain', '')]),
    );
    expect(conflict(() => main.mount(weather(), { namespace: 'w' })).kind).toBe('resource');
    const days = createServer({ name: 'days', version: '1', ...quiet }).resourceTemplate(
      'file:///days/{day}',
      { name: 'days' },
      (uri) => contents([textContent(uri, 'text/plain', '')]),
    );
    const other = host().mount(weather(), { namespace: 'w' });
    const error = conflict(() => other.mount(days, { namespace: 'd' }));
    expect(error.kind).toBe('template');
    expect(error.offeredAs).toBe('file:///days/{day}');
    // Prefixed by scheme, the same URIs of two servers do not meet.
    other.mount(weather(), { namespace: 'w2', resources: 'prefix' });
  });

  it('when the host registers a conflicting item later', () => {
    const main = host().mount(weather(), { namespace: 'weather' });
    expect(conflict(() => main.tool('weather_get', {}, () => text(''))).existing).toEqual({
      server: 'weather',
      name: 'get',
    });
    expect(conflict(() => main.prompt('weather_ask', {}, () => messages([]))).kind).toBe('prompt');
  });

  it('when the mounted server registers a conflicting item later, through every host above', () => {
    const inner = weather();
    const middle = createServer({ name: 'middle', version: '1', ...quiet }).mount(inner, {
      namespace: 'w',
    });
    host()
      .tool('m_w_extra', {}, () => text(''))
      .mount(middle, { namespace: 'm' });
    inner.tool('hello', {}, () => text('offered as m_w_hello'));
    const error = conflict(() => inner.tool('extra', {}, () => text('')));
    expect(error).toMatchObject({
      offeredAs: 'm_w_extra',
      existing: { server: 'main', name: 'm_w_extra' },
      incoming: { server: 'weather', name: 'extra' },
    });
    expect(inner.removeTool('extra')).toBe(false);
  });

  it('when another kind of provider brings the conflict: the server does not start', async () => {
    const prolog: Provider = {
      name: 'prolog',
      tools: () => [{ name: 'weather_get', inputSchema: { type: 'object' } }],
      callTool: () => Promise.resolve(text('')),
    };
    const main = host().provider(prolog).mount(weather(), { namespace: 'weather' });
    await expect(runtimeOf(main).ready()).rejects.toThrow(
      'mount conflict: tool "weather_get" would be offered twice, by the tool "weather_get" of server "main" and by the tool "get" of server "weather"',
    );
  });
});

describe('mount: calls, visibility, completions and changes', () => {
  it('calls the mounted tool and prompt under their prefixed names', async () => {
    const main = host().mount(weather(), { namespace: 'weather' });
    await runtimeOf(main).ready();
    expect(await runtimeOf(main).callTool('weather_get', {}, ctx)).toEqual(complete(text('sunny')));
    expect(await runtimeOf(main).getPrompt('weather_ask', { city: 'Oslo' }, ctx)).toEqual(
      complete(messages([message('user', 'Weather in Oslo?')])),
    );
    await expect(runtimeOf(main).getPrompt('weather_ask', {}, ctx)).rejects.toMatchObject({
      code: -32602,
    });
    await expect(runtimeOf(main).callTool('get', {}, ctx)).rejects.toMatchObject({ code: -32602 });
  });

  it('shows a mounted item only to callers both servers admit', async () => {
    const inner = createServer({ name: 'inner', version: '1', ...quiet })
      .tool('open', {}, () => text('open'))
      .tool('admin', { visible: requireScopes('admin') }, () => text('admin'));
    const main = host().mount(inner, { namespace: 'in', visible: requireScopes('mcp') });
    await runtimeOf(main).ready();
    const seen = (scopes: string[]) =>
      runtimeOf(main)
        .catalog.tools.filter((e) => e.visible === undefined || e.visible({ id: 's', scopes }))
        .map((e) => e.definition.name);
    expect(seen([])).toEqual(['hello']);
    expect(seen(['mcp'])).toEqual(['hello', 'in_open']);
    expect(seen(['mcp', 'admin'])).toEqual(['hello', 'in_open', 'in_admin']);
    const bob = testContext({ principal: { id: 'bob', scopes: ['admin'] } });
    await expect(runtimeOf(main).callTool('in_admin', {}, bob)).rejects.toMatchObject({
      code: -32602,
    });
  });

  it('routes completions of a mounted prompt to its server', async () => {
    const main = host().mount(weather(), { namespace: 'weather' });
    await runtimeOf(main).ready();
    expect(runtimeOf(main).capabilities().completions).toBe(true);
    const request = {
      ref: { type: 'ref/prompt' as const, name: 'weather_ask' },
      argument: { name: 'city', value: 'B' },
    };
    expect(await runtimeOf(main).complete(request)).toEqual({ values: ['Bergen'] });
    await expect(
      runtimeOf(main).complete({ ...request, ref: { type: 'ref/prompt', name: 'ask' } }),
    ).rejects.toMatchObject({ code: -32602 });
  });

  it('propagates list changes, resource updates (renamed) and log messages', async () => {
    const inner = weather();
    const main = host().mount(inner, { namespace: 'weather', resources: 'prefix' });
    await runtimeOf(main).ready();
    const changes: ServerChange[] = [];
    runtimeOf(main).onChange((change) => changes.push(change));
    const logs: unknown[] = [];
    runtimeOf(main).onLog((entry) => logs.push(entry.data));
    inner.tool('wind', {}, () => text('calm'));
    await until(() => changes.length === 1);
    expect(changes[0]).toEqual({ kind: 'tools' });
    expect(runtimeOf(main).catalog.tool('weather_wind')).toBeDefined();
    inner.resourceUpdated('file:///today.txt');
    await until(() => changes.length === 2);
    expect(changes[1]).toEqual({ kind: 'resource', uri: 'weather+file:///today.txt' });
    inner.broadcastLog('warning', 'reloaded');
    expect(logs).toEqual(['reloaded']);
  });

  it('closes the mounted server with its host', async () => {
    const inner = weather();
    let closed = false;
    inner.provider({ name: 'probe', close: () => Promise.resolve(void (closed = true)) });
    const main = host().mount(inner, { namespace: 'w' });
    await runtimeOf(main).ready();
    await main.close();
    expect(closed).toBe(true);
  });
});

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !condition(); i += 1) await new Promise((r) => setTimeout(r, 5));
  expect(condition()).toBe(true);
}
