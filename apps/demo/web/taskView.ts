import { h } from './dom.js';
import { askUser } from './inputRequestsView.js';
import { textOf, type JsonObject } from './jsonRpc.js';
import type { McpClient } from './mcpClient.js';

/** Where a followed task is shown: its card, and where its input requests go. */
export interface TaskPanels {
  task: HTMLElement;
  inputRequests: HTMLElement;
}

const TERMINAL = new Set(['completed', 'failed', 'cancelled']);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Follows a task the server created for a call: polls `tasks/get` at the suggested interval and
 * shows its status and message, offers a Cancel button (`tasks/cancel`), and when the task needs
 * input shows the requests as forms and sends the answers with `tasks/update`. Resolves with the
 * final (terminal) task.
 */
export async function followTask(
  client: McpClient,
  handle: JsonObject,
  panels: TaskPanels,
): Promise<JsonObject> {
  const taskId = String(handle.taskId);
  const status = h('strong', { 'data-testid': 'task-status' }, textOf(handle.status));
  const message = h('span', { class: 'muted', 'data-testid': 'task-message' });
  const cancel = h(
    'button',
    {
      type: 'button',
      'data-testid': 'task-cancel',
      onclick: () => {
        cancel.setAttribute('disabled', '');
        void client.call('tasks/cancel', { taskId });
      },
    },
    'Cancel task',
  );
  panels.task.replaceChildren(
    h(
      'div',
      { class: 'card task', 'data-testid': 'task' },
      h(
        'p',
        {},
        'Task ',
        h('code', { 'data-testid': 'task-id' }, taskId),
        ': ',
        status,
        ' ',
        message,
      ),
      cancel,
    ),
  );
  const interval = Math.max(200, Number(handle.pollIntervalMs) || 500);
  const asked = new Set<string>();
  let round = 0;
  for (;;) {
    const task = await client.call('tasks/get', { taskId });
    status.textContent = textOf(task.status);
    message.textContent = textOf(task.statusMessage);
    if (TERMINAL.has(String(task.status))) {
      cancel.remove();
      panels.inputRequests.replaceChildren();
      return task;
    }
    const requests = (task.inputRequests as Record<string, JsonObject> | undefined) ?? {};
    const fresh = Object.fromEntries(Object.entries(requests).filter(([key]) => !asked.has(key)));
    if (Object.keys(fresh).length > 0) {
      for (const key of Object.keys(fresh)) asked.add(key);
      // Answered while the polling goes on, so a cancel or a finished task still shows.
      void askUser(panels.inputRequests, fresh, ++round).then((inputResponses) =>
        client.call('tasks/update', { taskId, inputResponses }),
      );
    }
    await sleep(interval);
  }
}
