import { h, slug } from './dom.js';
import { objectAt, type JsonObject } from './jsonRpc.js';
import type { InputResponses } from './rounds.js';
import { schemaForm } from './schemaForm.js';

/** Renders one elicitation form and resolves with the user's answer (accept, decline or cancel). */
function elicitationCard(
  key: string,
  params: JsonObject,
): { card: HTMLElement; answer: Promise<JsonObject> } {
  const message = typeof params.message === 'string' ? params.message : 'The server asks for input';
  const id = `input-${slug(key)}`;
  const isUrl = params.mode === 'url';
  const form = isUrl ? undefined : schemaForm(objectAt(params, 'requestedSchema') ?? {}, id);
  const errors = h('div', { class: 'errors', role: 'alert', 'data-testid': 'form-errors' });
  let settle: (response: JsonObject) => void = () => undefined;
  const answer = new Promise<JsonObject>((resolve) => (settle = resolve));
  const card = h('form', {
    class: 'card input-request',
    'data-testid': `elicitation-${slug(key)}`,
    'aria-labelledby': `${id}-title`,
    novalidate: true,
  });
  const finish = (response: JsonObject, label: string) => {
    card.classList.add('answered');
    card
      .querySelectorAll('input, select, textarea, button')
      .forEach((control) => control.setAttribute('disabled', ''));
    card.append(h('p', { class: 'muted', 'data-testid': 'answered' }, `Answered: ${label}`));
    settle(response);
  };
  card.addEventListener('submit', (event) => {
    event.preventDefault();
    if (!form) return finish({ action: 'accept' }, 'accept');
    const read = form.read();
    if (!read.ok) return errors.replaceChildren(...read.errors.map((error) => h('div', {}, error)));
    finish({ action: 'accept', content: read.value }, 'accept');
  });
  const button = (action: 'decline' | 'cancel') =>
    h(
      'button',
      { type: 'button', 'data-testid': `${action}`, onclick: () => finish({ action }, action) },
      action === 'decline' ? 'Decline' : 'Cancel',
    );
  card.append(
    h('h3', { id: `${id}-title` }, message),
    h(
      'p',
      { class: 'muted' },
      isUrl
        ? 'The server asks you to open this link and finish there.'
        : 'The server asks you to fill in this form.',
    ),
    isUrl
      ? h(
          'p',
          {},
          h(
            'a',
            { href: String(params.url), target: '_blank', rel: 'noopener' },
            String(params.url),
          ),
        )
      : (form?.element ?? ''),
    errors,
    h(
      'div',
      { class: 'actions' },
      h('button', { type: 'submit', 'data-testid': 'accept' }, isUrl ? 'Done' : 'Accept'),
      button('decline'),
      button('cancel'),
    ),
  );
  return { card, answer };
}

/** A request kind the playground never declares; answered so the round can still go on. */
function unsupportedCard(method: string): { card: HTMLElement; answer: Promise<JsonObject> } {
  const card = h(
    'div',
    { class: 'card input-request' },
    h(
      'p',
      {},
      `The server asked for something this playground cannot give (${method}), so it answered with nothing.`,
    ),
  );
  const answer = method === 'roots/list' ? { roots: [] } : { action: 'decline' };
  return { card, answer: Promise.resolve(answer) };
}

/**
 * Shows one round's input requests (each `elicitation/create` as a generated form) in `container`
 * and resolves with every answer, keyed as the server keyed the requests, once all are answered.
 */
export async function askUser(
  container: HTMLElement,
  inputRequests: Record<string, JsonObject>,
  round: number,
): Promise<InputResponses> {
  const heading = h('p', { class: 'round' }, `Round ${round + 1}: the server needs input`);
  const cards = Object.entries(inputRequests).map(([key, request]) => {
    const params = objectAt(request, 'params') ?? {};
    const view =
      request.method === 'elicitation/create'
        ? elicitationCard(key, params)
        : unsupportedCard(String(request.method));
    return { key, ...view };
  });
  container.replaceChildren(heading, ...cards.map((view) => view.card));
  cards[0]?.card.querySelector<HTMLElement>('input, select, textarea, button')?.focus();
  const answers: InputResponses = {};
  for (const view of cards) answers[view.key] = await view.answer;
  return answers;
}
