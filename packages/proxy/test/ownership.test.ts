import { inMemoryTransport, type ClientTransport } from '@rondo/client';
import { createEndpoint, createServer, type Endpoint } from '@rondo/core';
import { legacyEra } from '@rondo/adapter-2025';
import { modernEra } from '@rondo/adapter-2026';
import { contents, isRequest, text, textContent } from '@rondo/protocol';
import { describe, expect, it } from 'vitest';
import { CatalogClaims, proxy, type UpstreamSpec } from '../src/index.js';
import { clientOf, closeAfterTest, endpointOf } from './support.js';

// Issue 38, done-when 5: a resource read goes only to the upstream that owns the URI (listed, or
// matched by one of its templates); a name or URI two entries offer is served by one of them,
// with a warning naming both, never shadowed silently.

/** An upstream spec over `endpoint` that records every URI a `resources/read` sends it. */
function recorded(endpoint: Endpoint, label: string): { spec: UpstreamSpec; reads: string[] } {
  const reads: string[] = [];
  const transport = (): ClientTransport => {
    const inner = inMemoryTransport(endpoint);
    return {
      endpointKey: `${inner.endpointKey}${label}`,
      start: (sink) => inner.start(sink),
      send: (message, context) => {
        if (isRequest(message) && message.method === 'resources/read') {
          reads.push(String(message.params?.uri));
        }
        return inner.send(message, context);
      },
      close: () => inner.close(),
    };
  };
  return { spec: { transport, label }, reads };
}

/**
 * A Rondo server with templates under `scheme://items/{id}{?token}`, and `docs://{name}` that has only
 * the names starting with its first letter (others read as not found).
 */
function templated(scheme: string, era: 'legacy' | 'modern') {
  const server = createServer({ name: scheme, version: '1.0.0' })
    .resourceTemplate(`${scheme}://items/{id}{?token}`, { name: `${scheme} items` }, (uri, vars) =>
      contents([textContent(uri, 'text/plain', `${scheme} item ${String(vars.id)}`)]),
    )
    .resourceTemplate(`docs://${scheme}/{name}`, { name: `${scheme} docs` }, (uri) =>
      contents([textContent(uri, 'text/plain', `${scheme} doc`)]),
    )
    .resourceTemplate(`shared://{name}`, { name: 'shared' }, (uri, vars) =>
      String(vars.name).startsWith(scheme[0]!)
        ? contents([textContent(uri, 'text/plain', `${scheme} shared`)])
        : undefined,
    );
  return endpointOf(server, era);
}

/** A gateway of two entries sharing one claims table, served to both eras. */
function twoEntries(first: UpstreamSpec, second: UpstreamSpec, namespaces = ['a', 'b']) {
  const warnings: string[] = [];
  const claims = new CatalogClaims(['alpha', 'beta'], (message) => warnings.push(message));
  const server = createServer({ name: 'gateway', version: '1.0.0' })
    .provider(proxy(first, { name: 'alpha', namespace: namespaces[0]!, claims }))
    .provider(proxy(second, { name: 'beta', namespace: namespaces[1]!, claims }));
  closeAfterTest(() => server.close());
  return {
    endpoint: createEndpoint(server, { modern: modernEra(), legacy: legacyEra() }),
    warnings,
  };
}

function textOf(result: { contents: unknown[] }): string {
  return (result.contents[0] as { text?: string }).text ?? '';
}

describe.each(['legacy', 'modern'] as const)('resource ownership (%s upstreams)', (era) => {
  it('reads each upstream its own templated resources, and sends no upstream another one', async () => {
    const alpha = recorded(templated('alpha', era), 'alpha');
    const beta = recorded(templated('beta', era), 'beta');
    const { endpoint } = twoEntries(alpha.spec, beta.spec);
    const client = await clientOf(endpoint, '2026-07-28');
    // The catalog holds both entries' templates (the shared one once: beta's is left out).
    expect((await client.listAllResourceTemplates()).length).toBe(5);
    expect(textOf(await client.readResource('alpha://items/1?token=a-secret'))).toBe(
      'alpha item 1',
    );
    expect(textOf(await client.readResource('beta://items/2?token=b-secret'))).toBe('beta item 2');
    expect(textOf(await client.readResource('docs://beta/guide'))).toBe('beta doc');
    await expect(client.readResource('nobody://x')).rejects.toThrow(/Resource not found/);
    expect(alpha.reads.every((uri) => !uri.startsWith('beta') && !uri.includes('beta/'))).toBe(
      true,
    );
    expect(beta.reads.every((uri) => !uri.startsWith('alpha'))).toBe(true);
    expect(alpha.reads).toContain('alpha://items/1?token=a-secret');
    expect(beta.reads).toEqual(['beta://items/2?token=b-secret', 'docs://beta/guide']);
    await client.close();
  });

  it("moves on when the owner's template matches but it has no such resource", async () => {
    const alpha = recorded(templated('alpha', era), 'alpha');
    // beta's `shared://{+rest}` overlaps alpha's `shared://{name}` without being the same template.
    const betaServer = createServer({ name: 'beta', version: '1.0.0' }).resourceTemplate(
      'shared://{+rest}',
      { name: 'beta rest' },
      (uri) => contents([textContent(uri, 'text/plain', 'beta rest')]),
    );
    const beta = recorded(endpointOf(betaServer, era), 'beta');
    const { endpoint } = twoEntries(alpha.spec, beta.spec);
    const client = await clientOf(endpoint, '2026-07-28');
    await client.listAllResourceTemplates();
    expect(textOf(await client.readResource('shared://apple'))).toBe('alpha shared');
    expect(textOf(await client.readResource('shared://banana'))).toBe('beta rest');
    expect(alpha.reads).toEqual(['shared://apple', 'shared://banana']);
    expect(beta.reads).toEqual(['shared://banana']);
    await client.close();
  });
});

/** An upstream offering `same` and `memo://same`, as the other one does, and a tool of its own. */
function upstream(who: string): Endpoint {
  return endpointOf(
    createServer({ name: who, version: '1.0.0' })
      .tool('same', {}, () => text(`same from ${who}`))
      .tool(`only_${who}`, {}, () => text(who))
      .resource('memo://same', { name: 'same' }, (uri) =>
        contents([textContent(uri, 'text/plain', who)]),
      ),
    'both',
  );
}

describe('names two entries offer', () => {
  it('are served by the first entry, the other left out with a warning naming both', async () => {
    const { endpoint, warnings } = twoEntries(
      recorded(upstream('alpha'), 'alpha').spec,
      recorded(upstream('beta'), 'beta').spec,
      ['', ''],
    );
    const client = await clientOf(endpoint, '2026-07-28');
    expect((await client.listAllTools()).map((tool) => tool.name).sort()).toEqual([
      'only_alpha',
      'only_beta',
      'same',
    ]);
    expect((await client.listAllResources()).map((resource) => resource.uri)).toEqual([
      'memo://same',
    ]);
    expect((await client.callTool('same')).content[0]).toMatchObject({ text: 'same from alpha' });
    expect(textOf(await client.readResource('memo://same'))).toBe('alpha');
    expect(warnings).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^tool "same" of entry "beta" left out: entry "alpha" offers it too/),
        expect.stringMatching(
          /^resource "memo:\/\/same" of entry "beta" left out: entry "alpha" offers it too/,
        ),
      ]),
    );
    await client.close();
  });

  it('go to the entry left out once the holder is dropped, and back when it returns', async () => {
    const warnings: string[] = [];
    const claims = new CatalogClaims(['alpha', 'beta'], (message) => warnings.push(message));
    const entry = (who: string) => {
      const provider = proxy(recorded(upstream(who), who).spec, {
        name: who,
        namespace: '',
        claims,
      });
      closeAfterTest(() => provider.close());
      return provider;
    };
    const names = async (provider: ReturnType<typeof entry>) =>
      (await provider.tools()).map((tool) => tool.name).sort();
    const alpha = entry('alpha');
    const beta = entry('beta');
    expect(await names(alpha)).toEqual(['only_alpha', 'same']);
    expect(await names(beta)).toEqual(['only_beta']);
    expect(warnings).toHaveLength(1);

    // A reload took alpha out: beta's list is read again and keeps what alpha held.
    await alpha.close();
    claims.drop('alpha');
    await expect.poll(() => names(beta)).toEqual(['only_beta', 'same']);
    expect((await beta.resources()).map((resource) => resource.uri)).toEqual(['memo://same']);

    // Alpha added again (first in the order) takes its names back, and says so again.
    const again = entry('alpha');
    expect(await names(again)).toEqual(['only_alpha', 'same']);
    await expect.poll(() => names(beta)).toEqual(['only_beta']);
    expect(warnings.filter((line) => line.startsWith('tool "same"'))).toHaveLength(2);
  });
});
