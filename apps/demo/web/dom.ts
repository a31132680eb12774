/** Attributes for {@link h}: strings become attributes, functions become event listeners. */
export type Attributes = Record<
  string,
  string | number | boolean | undefined | ((event: Event) => void)
>;

/**
 * Builds an element: `h('button', { 'data-testid': 'go', onclick: run }, 'Go')`. The whole playground
 * is built with this one helper instead of a framework, so the page stays a single small bundle.
 */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: (Node | string | undefined | false)[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    if (typeof value === 'function') element.addEventListener(name.replace(/^on/, ''), value);
    else if (value === true) element.setAttribute(name, '');
    else element.setAttribute(name, String(value));
  }
  for (const child of children) {
    if (child === undefined || child === false) continue;
    element.append(child);
  }
  return element;
}

/** Replaces an element's children. */
export function replaceChildren(parent: Element, ...children: (Node | string)[]): void {
  parent.replaceChildren(...children);
}

/** Looks up an element the page's HTML must contain; a missing one is a bug in index.html. */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (!element) throw new Error(`index.html has no #${id}`);
  return element as T;
}

/** A string usable inside an id or a data-testid. */
export function slug(value: string): string {
  return value.replace(/[^A-Za-z0-9_-]+/g, '-');
}
