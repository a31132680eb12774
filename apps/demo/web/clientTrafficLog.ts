import { h } from './dom.js';
import { isResponse, type JsonRpcMessage } from './jsonRpc.js';

/** How many entries the log keeps; the clock would otherwise grow it forever. */
const MAX_ENTRIES = 300;

/** A one-line summary of a message: its method, or its id and whether it succeeded. */
export function summarize(message: JsonRpcMessage): string {
  if (isResponse(message)) {
    if (message.error)
      return `error ${message.error.code} for #${String(message.id)}: ${message.error.message}`;
    const resultType =
      typeof message.result?.resultType === 'string' ? ` (${message.result.resultType})` : '';
    return `result #${String(message.id)}${resultType}`;
  }
  const id = 'id' in message ? ` #${String(message.id)}` : '';
  return `${message.method}${id}`;
}

/**
 * What this page's client sent and received, as a readable log of JSON-RPC messages: newest at the
 * bottom, each entry one summary line that opens to the pretty-printed message. What the server saw
 * of the same calls is the server traffic panel (`serverTrafficView.ts`).
 */
export class ClientTrafficLog {
  private count = 0;
  /** Whether the log keeps the newest entry in view: until the reader scrolls up, and again once back at the bottom. */
  private following = true;
  /** Where this log last scrolled itself, to tell its own scrolling from the reader's. */
  private scrolledTo = 0;

  constructor(private readonly list: HTMLElement) {
    list.addEventListener('scroll', () => {
      const atBottom = list.scrollTop + list.clientHeight >= list.scrollHeight - 8;
      if (atBottom) this.following = true;
      else if (list.scrollTop < this.scrolledTo - 8) this.following = false;
    });
  }

  /** Appends one message. */
  add(direction: 'out' | 'in', message: JsonRpcMessage): void {
    this.count += 1;
    const time = new Date().toLocaleTimeString();
    const arrow = direction === 'out' ? '→' : '←';
    const kind = isResponse(message)
      ? message.error
        ? 'error'
        : 'result'
      : 'id' in message
        ? 'request'
        : 'notification';
    const entry = h(
      'li',
      { class: `client-traffic ${direction} ${kind}`, 'data-testid': 'client-traffic-entry' },
      h(
        'details',
        {},
        h(
          'summary',
          {},
          h(
            'span',
            { class: 'arrow', 'aria-label': direction === 'out' ? 'sent' : 'received' },
            arrow,
          ),
          ` ${time} `,
          summarize(message),
        ),
        h('pre', {}, JSON.stringify(message, null, 2)),
      ),
    );
    this.list.append(entry);
    while (this.list.childElementCount > MAX_ENTRIES) this.list.firstElementChild?.remove();
    if (this.following) {
      this.list.scrollTop = this.list.scrollHeight;
      this.scrolledTo = this.list.scrollTop;
    }
  }

  /** How many messages were logged since the page loaded. */
  get total(): number {
    return this.count;
  }

  clear(): void {
    this.list.replaceChildren();
    this.following = true;
    this.scrolledTo = 0;
  }
}
