import { h, slug } from './dom.js';
import { objectAt, textOf, type JsonObject } from './jsonRpc.js';
import { schemaForm } from './schemaForm.js';

/** What the user asked to run from the detail panel. */
export type Action =
  | { kind: 'tool'; name: string; args: JsonObject }
  | { kind: 'prompt'; name: string; args: JsonObject }
  | { kind: 'resource'; uri: string };

/** The lists the server offers, as the list methods returned them. */
export interface CatalogLists {
  tools: JsonObject[];
  prompts: JsonObject[];
  resources: JsonObject[];
  templates: JsonObject[];
}

type Kind = 'tool' | 'prompt' | 'resource' | 'template';

/** The variables of an RFC 6570 template (`{city}`, `{+path}`, `{?a,b}`), for a simple form. */
export function templateVariables(template: string): string[] {
  const names: string[] = [];
  for (const [, expression] of template.matchAll(/\{([^}]+)\}/g)) {
    for (const name of (expression ?? '').replace(/^[+#./;?&]/, '').split(','))
      names.push(name.replace(/[*:].*$/, ''));
  }
  return names;
}

/** Fills a template with level-1 expansion, which is all the form above can produce. */
function expand(template: string, values: JsonObject): string {
  return template.replace(/\{([^}]+)\}/g, (_match, expression: string) =>
    templateVariables(`{${expression}}`)
      .map((name) => encodeURIComponent(textOf(values[name])))
      .join(','),
  );
}

/** The schema a prompt's string arguments amount to, so prompts get the same generated form as tools. */
function promptSchema(prompt: JsonObject): JsonObject {
  const args = Array.isArray(prompt.arguments) ? (prompt.arguments as JsonObject[]) : [];
  const properties: JsonObject = {};
  for (const argument of args)
    properties[String(argument.name)] = { type: 'string', description: argument.description ?? '' };
  return {
    type: 'object',
    properties,
    required: args.filter((a) => a.required === true).map((a) => String(a.name)),
  };
}

function detailForm(kind: Kind, item: JsonObject, run: (action: Action) => void): HTMLElement {
  const name = String(item.name ?? item.uri ?? item.uriTemplate);
  const schema =
    kind === 'tool'
      ? (objectAt(item, 'inputSchema') ?? {})
      : kind === 'prompt'
        ? promptSchema(item)
        : kind === 'template'
          ? {
              type: 'object',
              properties: Object.fromEntries(
                templateVariables(String(item.uriTemplate)).map((v) => [v, { type: 'string' }]),
              ),
              required: templateVariables(String(item.uriTemplate)),
            }
          : { type: 'object', properties: {} };
  const form = schemaForm(schema, `${kind}-args`);
  const errors = h('div', { class: 'errors', role: 'alert' });
  const element = h('form', {
    class: 'card',
    'data-testid': `detail-${kind}`,
    novalidate: true,
    'aria-label': `${kind} ${name}`,
  });
  element.addEventListener('submit', (event) => {
    event.preventDefault();
    const read = form.read();
    if (!read.ok) return errors.replaceChildren(...read.errors.map((error) => h('div', {}, error)));
    errors.replaceChildren();
    if (kind === 'tool' || kind === 'prompt') run({ kind, name, args: read.value });
    else if (kind === 'template')
      run({ kind: 'resource', uri: expand(String(item.uriTemplate), read.value) });
    else run({ kind: 'resource', uri: String(item.uri) });
  });
  const verb = kind === 'tool' ? 'Call tool' : kind === 'prompt' ? 'Get prompt' : 'Read resource';
  element.append(
    h('h2', {}, textOf(item.title, name)),
    h('p', { class: 'muted' }, h('code', {}, name)),
    typeof item.description === 'string' ? h('p', {}, item.description) : '',
    form.element,
    errors,
    h('div', { class: 'actions' }, h('button', { type: 'submit', 'data-testid': 'run' }, verb)),
  );
  return element;
}

/**
 * The server's tools, prompts, resources and templates as buttons; picking one shows a form
 * generated from its schema (a tool's `inputSchema`, a prompt's arguments, a template's variables).
 */
export function renderCatalog(
  lists: CatalogLists,
  targets: Record<'tools' | 'prompts' | 'resources' | 'templates' | 'detail', HTMLElement>,
  run: (action: Action) => void,
): void {
  const fill = (list: HTMLElement, kind: Kind, items: JsonObject[]) => {
    list.replaceChildren(
      ...items.map((item) => {
        const key = String(item.name ?? item.uri ?? item.uriTemplate);
        const label =
          kind === 'resource' || kind === 'template' ? String(item.uri ?? item.uriTemplate) : key;
        const open = () => targets.detail.replaceChildren(detailForm(kind, item, run));
        return h(
          'li',
          {},
          h(
            'button',
            {
              type: 'button',
              'data-testid': `${kind}-${slug(key)}`,
              title: textOf(item.description),
              onclick: open,
            },
            label,
          ),
        );
      }),
    );
    if (items.length === 0) list.append(h('li', { class: 'muted' }, 'none'));
  };
  fill(targets.tools, 'tool', lists.tools);
  fill(targets.prompts, 'prompt', lists.prompts);
  fill(targets.resources, 'resource', lists.resources);
  fill(targets.templates, 'template', lists.templates);
}
