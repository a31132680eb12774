import { h } from './dom.js';
import { RpcError, objectAt, textOf, type JsonObject } from './jsonRpc.js';

function contentBlock(block: JsonObject): HTMLElement {
  switch (block.type) {
    case 'text':
      return h('div', { class: 'text', 'data-testid': 'result-text' }, String(block.text));
    case 'image':
    case 'audio': {
      const src = `data:${String(block.mimeType)};base64,${String(block.data)}`;
      return block.type === 'image'
        ? h('img', { src, alt: 'image content' })
        : h('audio', { src, controls: true });
    }
    case 'resource_link':
      return h('div', {}, 'Link: ', h('code', {}, String(block.uri)), ` ${textOf(block.name)}`);
    case 'resource': {
      const resource = objectAt(block, 'resource') ?? {};
      return h('pre', {}, textOf(resource.text, textOf(resource.blob)));
    }
    default:
      return h('pre', {}, JSON.stringify(block, null, 2));
  }
}

function resultBody(result: JsonObject): HTMLElement[] {
  const parts: HTMLElement[] = [];
  if (Array.isArray(result.content))
    parts.push(...(result.content as JsonObject[]).map(contentBlock));
  if (result.structuredContent !== undefined) {
    parts.push(
      h('p', { class: 'muted' }, 'structuredContent'),
      h('pre', {}, JSON.stringify(result.structuredContent, null, 2)),
    );
  }
  if (Array.isArray(result.messages)) {
    for (const message of result.messages as JsonObject[]) {
      const content = objectAt(message, 'content') ?? {};
      parts.push(
        h(
          'div',
          { class: 'message' },
          h('strong', {}, `${String(message.role)}: `),
          contentBlock(content),
        ),
      );
    }
  }
  if (Array.isArray(result.contents)) {
    for (const item of result.contents as JsonObject[]) {
      parts.push(
        h('p', { class: 'muted' }, String(item.uri)),
        h('pre', { 'data-testid': 'result-text' }, textOf(item.text, textOf(item.blob))),
      );
    }
  }
  return parts;
}

/**
 * Shows a finished call: its content rendered for people (text, images, prompt messages, resource
 * contents, structured content), the raw result under it, or the JSON-RPC error.
 */
export function showResult(
  container: HTMLElement,
  title: string,
  outcome: JsonObject | Error,
): void {
  if (outcome instanceof Error) {
    const detail =
      outcome instanceof RpcError && outcome.data !== undefined
        ? JSON.stringify(outcome.data, null, 2)
        : undefined;
    container.replaceChildren(
      h(
        'div',
        { class: 'card is-error', 'data-testid': 'result-error' },
        h('h3', {}, title),
        h('p', {}, outcome.message),
        detail ? h('pre', {}, detail) : undefined,
      ),
    );
    return;
  }
  const result = outcome;
  const flag =
    result.isError === true
      ? h('p', { class: 'is-error' }, 'The tool reported an error (isError).')
      : undefined;
  container.replaceChildren(
    h(
      'div',
      { class: `card${result.isError === true ? ' is-error' : ''}`, 'data-testid': 'result-card' },
      h('h3', {}, title),
      flag,
      ...resultBody(result),
      h(
        'details',
        {},
        h('summary', {}, 'Raw result'),
        h('pre', {}, JSON.stringify(result, null, 2)),
      ),
    ),
  );
}
