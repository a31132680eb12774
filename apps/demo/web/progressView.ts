import { h, slug } from './dom.js';
import type { JsonObject } from './jsonRpc.js';

/**
 * Progress bars, one per call: a `notifications/progress` with a total fills a determinate bar, one
 * without a total shows an indeterminate bar with the count.
 */
export class ProgressView {
  private readonly bars = new Map<string, { bar: HTMLProgressElement; label: HTMLElement }>();
  /** Set once the call's answer came: later notifications change nothing. */
  private finished = false;

  constructor(private readonly container: HTMLElement) {}

  /** Shows one progress notification's params in the bar called `key`. */
  update(key: string, params: JsonObject, title: string): void {
    if (this.finished) return;
    let view = this.bars.get(key);
    if (!view) {
      const id = `progress-${slug(key)}`;
      const label = h('span', { id: `${id}-label` });
      const bar = h('progress', {
        'aria-labelledby': `${id}-label`,
        'data-testid': 'progress-bar',
        max: 1,
      });
      view = { bar, label };
      this.bars.set(key, view);
      this.container.append(
        h('div', { class: 'progress', 'data-testid': id }, h('strong', {}, title), ' ', label, bar),
      );
    }
    const progress = Number(params.progress);
    const total = typeof params.total === 'number' ? params.total : undefined;
    if (total !== undefined) {
      view.bar.max = total;
      view.bar.value = progress;
    } else {
      view.bar.removeAttribute('value'); // indeterminate: the server did not say how far it is
    }
    const message = typeof params.message === 'string' ? ` ${params.message}` : '';
    view.label.textContent = `${progress}${total !== undefined ? ` / ${total}` : ''}${message}`;
  }

  /** The call answered: every bar shows it full and stops, an indeterminate one included. */
  finish(): void {
    this.finished = true;
    for (const { bar, label } of this.bars.values()) {
      bar.value = bar.max;
      bar.dataset.state = 'done';
      label.textContent = `${label.textContent ?? ''} (done)`;
    }
  }

  clear(): void {
    this.finished = false;
    this.bars.clear();
    this.container.replaceChildren();
  }
}
