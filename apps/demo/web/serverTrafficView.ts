import { h } from './dom.js';

/**
 * One call as the demo server recorded it (the JSON of `GET /traffic` and of each `call` event of
 * `GET /traffic/stream`, from `src/serverTraffic.ts`): a request, or one round of a multi-round one.
 */
export interface ServerCall {
  seq: number;
  method: string;
  target?: string;
  era: 'legacy' | 'modern';
  revision: string;
  round: number;
  principal?: string;
  outcome: 'ok' | 'error' | 'cancelled';
  result?: 'complete' | 'input_required';
  code?: number;
  message?: string;
  ms: number;
  time: string;
}

/** Rows kept when the server has not said how many it keeps. */
const DEFAULT_ROWS = 200;

/** Reads one record, or undefined when the JSON is not one. */
export function parseServerCall(data: string): ServerCall | undefined {
  try {
    const value = JSON.parse(data) as Partial<ServerCall> | null;
    if (
      typeof value?.seq !== 'number' ||
      typeof value.method !== 'string' ||
      (value.era !== 'legacy' && value.era !== 'modern') ||
      typeof value.round !== 'number' ||
      typeof value.ms !== 'number'
    )
      return undefined;
    return value as ServerCall;
  } catch {
    return undefined;
  }
}

/** The outcome cell's text: `ok`, `input required`, `error -32602: Unknown tool`, `cancelled`. */
export function outcomeText(call: ServerCall): string {
  if (call.outcome === 'error')
    return `error ${call.code ?? ''}${call.message ? `: ${call.message}` : ''}`;
  if (call.outcome === 'cancelled') return 'cancelled';
  return call.result === 'input_required' ? 'input required' : 'ok';
}

function clock(iso: string): string {
  const at = new Date(iso);
  return Number.isNaN(at.getTime())
    ? iso
    : `${at.toLocaleTimeString([], { hour12: false })}.${String(at.getMilliseconds()).padStart(3, '0')}`;
}

function row(call: ServerCall): HTMLTableRowElement {
  const cell = (testId: string, ...content: (Node | string)[]) =>
    h('td', { 'data-testid': testId }, ...content);
  return h(
    'tr',
    {
      class: `server-call ${call.era} ${call.outcome}`,
      'data-testid': 'server-traffic-entry',
      'data-seq': call.seq,
      'data-method': call.method,
      'data-target': call.target,
      'data-era': call.era,
      'data-round': call.round,
      'data-outcome': call.outcome,
    },
    cell('time', clock(call.time)),
    cell(
      'era',
      h('span', { class: `era ${call.era}`, title: `revision ${call.revision}` }, call.era),
      h('small', {}, ` ${call.revision}`),
    ),
    cell('method', call.method),
    cell('target', call.target ?? ''),
    cell('round', String(call.round)),
    cell('principal', call.principal ?? ''),
    cell('outcome', outcomeText(call)),
    cell('duration', `${call.ms.toFixed(1)} ms`),
  );
}

/**
 * The "Server traffic" panel: every call the demo server handled (from any client, in either era),
 * newest first, read from the server-sent-events stream `traffic/stream`. That stream is not MCP,
 * so reading it adds nothing to the traffic. The browser's EventSource reconnects by itself and
 * sends the last id it saw, so nothing is shown twice.
 */
export class ServerTrafficView {
  private source: EventSource | undefined;
  private newest = 0;
  private limit = DEFAULT_ROWS;

  constructor(
    private readonly body: HTMLElement,
    private readonly status: HTMLElement,
    private readonly url: string,
  ) {}

  open(): void {
    this.source?.close();
    const source = new EventSource(this.url);
    this.source = source;
    this.setStatus('connecting…', 'busy');
    source.addEventListener('open', () => this.setStatus('live', 'ok'));
    source.addEventListener('error', () =>
      this.setStatus(
        source.readyState === EventSource.CLOSED ? 'closed' : 'reconnecting…',
        'error',
      ),
    );
    source.addEventListener('start', (event) => this.onStart((event as MessageEvent<string>).data));
    source.addEventListener('call', (event) => {
      const call = parseServerCall((event as MessageEvent<string>).data);
      if (call) this.add(call);
    });
  }

  /** Shows one record at the top, unless it is already shown. */
  add(call: ServerCall): void {
    if (call.seq <= this.newest) return;
    this.newest = call.seq;
    this.body.prepend(row(call));
    while (this.body.childElementCount > this.limit) this.body.lastElementChild?.remove();
  }

  clear(): void {
    this.body.replaceChildren();
  }

  close(): void {
    this.source?.close();
    this.source = undefined;
  }

  private onStart(data: string): void {
    let start: { capacity?: unknown; total?: unknown } = {};
    try {
      start = JSON.parse(data) as typeof start;
    } catch {
      return;
    }
    if (typeof start.capacity === 'number' && start.capacity > 0) this.limit = start.capacity;
    // Fewer calls than we have seen: the server restarted, and its numbering with it.
    if (typeof start.total === 'number' && start.total < this.newest) {
      this.newest = 0;
      this.clear();
    }
  }

  private setStatus(text: string, state: 'busy' | 'ok' | 'error'): void {
    this.status.textContent = text;
    this.status.dataset.state = state;
  }
}
