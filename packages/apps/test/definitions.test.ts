import { createServer } from '@rondo/core';
import { describe, expect, it } from 'vitest';
import {
  AppDefinitionError,
  MAX_CSP_ORIGINS,
  appTool,
  apps,
  uiResource,
  type UiResourceSpec,
} from '../src/index.js';

const HTML = '<!doctype html><p>app</p>';

/** The error `declare` throws, checked to be an AppDefinitionError. */
function failure(declare: () => unknown): AppDefinitionError {
  try {
    declare();
  } catch (error) {
    expect(error).toBeInstanceOf(AppDefinitionError);
    return error as AppDefinitionError;
  }
  throw new Error('the declaration did not throw');
}

function resource(spec: Record<string, unknown>): () => unknown {
  const server = createServer({ name: 'bad', version: '1.0.0' });
  const declared: Record<string, unknown> = {
    uri: 'ui://bad/view.html',
    name: 'View',
    html: HTML,
    ...spec,
  };
  return () => uiResource(server, declared as unknown as UiResourceSpec);
}

describe('uiResource refuses', () => {
  it.each([
    ['an https URI', { uri: 'https://example.com/view.html' }, 'uri', 'must use the ui:// scheme'],
    ['a bare ui://', { uri: 'ui://' }, 'uri', 'names nothing after ui://'],
    ['a URI with a space', { uri: 'ui://bad/my view.html' }, 'uri', 'whitespace'],
    ['a URI with a fragment', { uri: 'ui://bad/view.html#top' }, 'uri', 'fragment'],
    ['an empty name', { name: ' ' }, 'name', 'non-empty string'],
    ['empty HTML', { html: '' }, 'html', 'non-empty string'],
    ['a zero byte limit', { maxBytes: 0 }, 'maxBytes', 'positive integer'],
    [
      'an unknown meta member',
      { meta: { border: true } },
      'meta.border',
      'csp, permissions, domain, prefersBorder',
    ],
    [
      'a CSP origin with a path',
      { meta: { csp: { connectDomains: ['https://api.example.com/v1'] } } },
      'meta.csp.connectDomains[0]',
      'is not an origin',
    ],
    [
      'a CSP keyword',
      { meta: { csp: { resourceDomains: ['https://cdn.example', "'unsafe-eval'"] } } },
      'meta.csp.resourceDomains[1]',
      'is not an origin',
    ],
    [
      'a CSP injection',
      { meta: { csp: { connectDomains: ['https://a.example; script-src *'] } } },
      'meta.csp.connectDomains[0]',
      'is not an origin',
    ],
    [
      'a bare wildcard',
      { meta: { csp: { frameDomains: ['*'] } } },
      'meta.csp.frameDomains[0]',
      'is not an origin',
    ],
    [
      'an unknown CSP list',
      { meta: { csp: { imgDomains: [] } } },
      'meta.csp.imgDomains',
      'is not a member',
    ],
    [
      'too many origins',
      {
        meta: {
          csp: {
            connectDomains: Array.from(
              { length: MAX_CSP_ORIGINS + 1 },
              (_, i) => `https://h${i}.example`,
            ),
          },
        },
      },
      'meta.csp.connectDomains',
      `over ${MAX_CSP_ORIGINS}`,
    ],
    [
      'an unknown permission',
      { meta: { permissions: { bluetooth: {} } } },
      'meta.permissions.bluetooth',
      'is not a member',
    ],
    [
      'a permission with settings',
      { meta: { permissions: { camera: { front: true } } } },
      'meta.permissions.camera',
      'must be {} or true',
    ],
    [
      'a domain with a scheme',
      { meta: { domain: 'https://lamp.example.com' } },
      'meta.domain',
      'must be a host name',
    ],
    [
      'a non-boolean border',
      { meta: { prefersBorder: 'yes' } },
      'meta.prefersBorder',
      'true or false',
    ],
  ])('%s', (_case, spec, field, message) => {
    const error = failure(resource(spec));
    expect(error.field).toBe(field);
    expect(error.message).toContain(message);
  });

  it('says which resource the error is of', () => {
    const error = failure(resource({ meta: { prefersBorder: 'yes' } }));
    expect(error.owner).toBe('ui://bad/view.html');
    expect(error.message).toBe('ui://bad/view.html: meta.prefersBorder must be true or false');
  });
});

describe('appTool refuses', () => {
  const server = createServer({ name: 'tools', version: '1.0.0' });
  uiResource(server, { uri: 'ui://tools/view.html', name: 'View', html: HTML });
  const tool = (ui: unknown, meta?: Record<string, string>) => () =>
    appTool(server, 'show', { ui: ui as never, ...(meta ? { _meta: meta } : {}) }, () => 'ok');

  it.each([
    [
      'a resource it does not serve',
      { resourceUri: 'ui://tools/other.html' },
      'ui.resourceUri',
      'register it with uiResource first',
    ],
    [
      'a resource outside ui://',
      { resourceUri: 'https://example.com' },
      'ui.resourceUri',
      'ui:// scheme',
    ],
    [
      'an empty visibility',
      { resourceUri: 'ui://tools/view.html', visibility: [] },
      'ui.visibility',
      'non-empty list',
    ],
    [
      'an unknown audience',
      { visibility: ['model', 'user'] },
      'ui.visibility[1]',
      "must be 'model' or 'app'",
    ],
    ['a repeated audience', { visibility: ['app', 'app'] }, 'ui.visibility[1]', "repeats 'app'"],
    [
      'an unknown member',
      { resourceUri: 'ui://tools/view.html', csp: {} },
      'ui.csp',
      'resourceUri, visibility',
    ],
    ['an empty ui', {}, 'ui', 'neither a resourceUri nor a visibility'],
  ])('%s', (_case, ui, field, message) => {
    const error = failure(tool(ui));
    expect(error.field).toBe(field);
    expect(error.owner).toBe('tool "show"');
    expect(error.message).toContain(message);
  });

  it('a _meta.ui given beside the ui member', () => {
    const error = failure(
      tool({ visibility: ['app'] }, { 'ui/resourceUri': 'ui://tools/view.html' }),
    );
    expect(error.field).toBe('_meta.ui');
  });
});

describe('apps refuses', () => {
  it('an empty list of MIME types', () => {
    expect(failure(() => apps({ mimeTypes: [] })).field).toBe('mimeTypes');
  });
});
