import { appOf, visibleToModel } from './appTools.js';
import { renderCatalog, type Action, type CatalogLists } from './catalogView.js';
import type { Channel } from './channel.js';
import { ClientTrafficLog } from './clientTrafficLog.js';
import { byId, h } from './dom.js';
import { EventFeed } from './eventFeed.js';
import { EventsPanel } from './eventsView.js';
import { HttpChannel } from './httpChannel.js';
import { askUser } from './inputRequestsView.js';
import { objectAt, textOf, type JsonObject, type JsonRpcMessage } from './jsonRpc.js';
import { McpClient } from './mcpClient.js';
import { ProgressView } from './progressView.js';
import { showResult } from './resultView.js';
import { callWithRounds } from './rounds.js';
import { ServerTrafficView } from './serverTrafficView.js';
import { followTask } from './taskView.js';
import { WebSocketChannel } from './wsChannel.js';

/**
 * The playground page: connects a modern MCP client to the demo server (WebSocket or HTTP), lists
 * what the server offers, runs tools, prompts and resource reads through MRTR rounds, and shows
 * progress, subscription notifications, the server's events (by push and poll), the JSON-RPC
 * messages it exchanged (client traffic) and every call the server handled (server traffic).
 */

const ui = {
  form: byId<HTMLFormElement>('connect-form'),
  transport: byId<HTMLSelectElement>('transport'),
  connect: byId<HTMLButtonElement>('connect-button'),
  status: byId('status'),
  serverInfo: byId('server-info'),
  tools: byId('tools'),
  prompts: byId('prompts'),
  resources: byId('resources'),
  templates: byId('templates'),
  detail: byId('detail'),
  inputRequests: byId('input-requests'),
  task: byId('task'),
  result: byId('result'),
  appView: byId('app-view'),
  listen: byId<HTMLButtonElement>('listen-button'),
  notifications: byId('notifications'),
};
const traffic = new ClientTrafficLog(byId('client-traffic'));
const serverTraffic = new ServerTrafficView(
  byId('server-traffic'),
  byId('server-traffic-status'),
  new URL('traffic/stream', location.href).href,
);
const progress = new ProgressView(byId('progress'));
const events = new EventsPanel({
  controls: byId('events-controls'),
  status: byId('events-status'),
  feed: new EventFeed(byId('event-feed')),
});
let client: McpClient | undefined;
/** Every tool the server lists, app-only ones included (the catalog shows the model's share). */
let allTools: JsonObject[] = [];
let listening: AbortController | undefined;
/** Request ids go on across reconnects, so the client traffic log never shows one id twice. */
let lastRequestId = 0;
const requestIds = { next: () => ++lastRequestId };

function setStatus(text: string, state: 'idle' | 'busy' | 'ok' | 'error'): void {
  ui.status.textContent = text;
  ui.status.dataset.state = state;
  updateConnectButton();
}

/** The button says what pressing it does: disconnect from the transport chosen, or connect. */
function updateConnectButton(): void {
  const connectedHere =
    ui.status.dataset.state === 'ok' && client?.channel.kind === ui.transport.value;
  ui.connect.textContent = connectedHere ? 'Disconnect' : 'Connect';
  ui.connect.dataset.action = connectedHere ? 'disconnect' : 'connect';
}

function disconnect(): void {
  stopListening();
  events.close();
  void clearApp();
  client?.close();
  client = undefined;
  ui.listen.disabled = true;
  showHint('Connect, then pick a tool, prompt or resource.');
  setStatus('Not connected', 'idle');
}

async function openChannel(kind: string): Promise<Channel> {
  if (kind === 'http')
    return new HttpChannel(
      new URL('mcp', location.href).href,
      (request) => client?.paramHeadersFor(request) ?? {},
    );
  const url = new URL('ws', location.href);
  url.protocol = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return WebSocketChannel.open(url.href, (message) => traffic.add('in', message));
}

/** Reads every page of a list method. */
async function listAll(method: string, key: string): Promise<JsonObject[]> {
  const items: JsonObject[] = [];
  let cursor: unknown;
  do {
    const result = await client!.call(method, cursor === undefined ? {} : { cursor });
    items.push(...((result[key] as JsonObject[] | undefined) ?? []));
    cursor = result.nextCursor;
  } while (typeof cursor === 'string');
  return items;
}

async function loadCatalog(capabilities: JsonObject): Promise<void> {
  const lists: CatalogLists = { tools: [], prompts: [], resources: [], templates: [] };
  if (capabilities.tools) lists.tools = await listAll('tools/list', 'tools');
  if (capabilities.prompts) lists.prompts = await listAll('prompts/list', 'prompts');
  if (capabilities.resources) {
    lists.resources = await listAll('resources/list', 'resources');
    lists.templates = await listAll('resources/templates/list', 'resourceTemplates');
  }
  client!.rememberTools(lists.tools);
  // As an MCP Apps host must: app-only tools stay out of the model's list (here, the catalog).
  allTools = lists.tools;
  lists.tools = allTools.filter(visibleToModel);
  renderCatalog(lists, ui, (action) => void run(action));
}

/** The detail panel's text before anything is picked. */
function showHint(text: string): void {
  ui.detail.replaceChildren(h('p', { class: 'muted', 'data-testid': 'detail-hint' }, text));
}

async function connect(): Promise<void> {
  stopListening();
  events.close();
  client?.close();
  setStatus('Connecting…', 'busy');
  try {
    client = new McpClient(
      await openChannel(ui.transport.value),
      (direction, message) => traffic.add(direction, message),
      requestIds,
    );
    const discovered = await client.call('server/discover');
    const info =
      objectAt(objectAt(discovered, '_meta'), 'io.modelcontextprotocol/serverInfo') ?? {};
    const versions = Array.isArray(discovered.supportedVersions)
      ? discovered.supportedVersions.filter(
          (version): version is string => typeof version === 'string',
        )
      : [];
    ui.serverInfo.replaceChildren(
      h(
        'p',
        {},
        h('strong', {}, textOf(info.title, textOf(info.name, 'server'))),
        ` ${textOf(info.version)} · serves `,
        h(
          'span',
          { 'data-testid': 'server-versions' },
          versions.length > 0 ? versions.join(', ') : 'no versions listed',
        ),
      ),
      typeof discovered.instructions === 'string'
        ? h('p', { class: 'muted' }, discovered.instructions)
        : '',
    );
    await loadCatalog(objectAt(discovered, 'capabilities') ?? {});
    await events.open(client, objectAt(discovered, 'capabilities') ?? {});
    showHint('Pick a tool, prompt or resource.');
    ui.listen.disabled = false;
    setStatus(`Connected over ${client.channel.kind === 'ws' ? 'WebSocket' : 'HTTP'}`, 'ok');
  } catch (failure) {
    showHint('Connect, then pick a tool, prompt or resource.');
    setStatus(
      `Connection failed: ${failure instanceof Error ? failure.message : String(failure)}`,
      'error',
    );
  }
}

let calls = 0;

/** Shows a call's progress in one bar, although each of its rounds has its own progress token. */
function onProgress(title: string) {
  const bar = `call-${++calls}`;
  return (message: JsonRpcMessage) => {
    if ('method' in message && message.method === 'notifications/progress' && message.params)
      progress.update(bar, message.params, title);
  };
}

async function run(action: Action): Promise<void> {
  if (!client) return;
  const title = action.kind === 'resource' ? action.uri : action.name;
  progress.clear();
  await clearApp();
  ui.task.replaceChildren();
  ui.result.replaceChildren(
    h('p', { class: 'muted', 'data-testid': 'running' }, `Running ${title}…`),
  );
  const [method, params]: ['tools/call' | 'prompts/get' | 'resources/read', JsonObject] =
    action.kind === 'tool'
      ? ['tools/call', { name: action.name, arguments: action.args }]
      : action.kind === 'prompt'
        ? ['prompts/get', { name: action.name, arguments: action.args }]
        : ['resources/read', { uri: action.uri }];
  try {
    const answer = (requests: Record<string, JsonObject>, round: number) =>
      askUser(ui.inputRequests, requests, round);
    const result = await callWithRounds(client, method, params, answer, {
      progress: true,
      onRelated: onProgress(title),
    });
    if (result.resultType === 'task') await showTask(title, result);
    else {
      showResult(ui.result, title, result);
      if (action.kind === 'tool') await openApp(action, result);
    }
  } catch (failure) {
    showResult(ui.result, title, failure instanceof Error ? failure : new Error(String(failure)));
  } finally {
    ui.inputRequests.replaceChildren();
    // Notifications that arrive after the answer must not move a bar the result has ended.
    progress.finish();
  }
}

/** Removes the App of the previous call, if one is shown. */
async function clearApp(): Promise<void> {
  if (ui.appView.childElementCount === 0) return;
  await (await import('./appHost.js')).closeApp();
  ui.appView.replaceChildren();
}

/** Shows the App of a tool tied to one (`_meta.ui.resourceUri`) with the call's input and result. */
async function openApp(
  action: { name: string; args: JsonObject },
  result: JsonObject,
): Promise<void> {
  const tool = allTools.find((entry) => entry.name === action.name);
  if (!client || !appOf(tool) || result.isError === true) return;
  try {
    const { showApp } = await import('./appHost.js');
    await showApp(ui.appView, client, allTools, { tool: tool!, args: action.args, result });
  } catch (failure) {
    ui.appView.replaceChildren(
      h(
        'p',
        { class: 'is-error', 'data-testid': 'app-error' },
        `The App failed: ${String(failure)}`,
      ),
    );
  }
}

/** Follows a task until it ends, then shows its result, its error or its cancellation. */
async function showTask(title: string, handle: JsonObject): Promise<void> {
  ui.result.replaceChildren(
    h('p', { class: 'muted', 'data-testid': 'running' }, `${title} runs as a task…`),
  );
  const task = await followTask(client!, handle, ui);
  if (task.status === 'completed') showResult(ui.result, title, objectAt(task, 'result') ?? {});
  else if (task.status === 'failed')
    showResult(ui.result, title, new Error(textOf(objectAt(task, 'error')?.message, 'failed')));
  else
    ui.result.replaceChildren(
      h('p', { 'data-testid': 'task-cancelled' }, `${title} was cancelled.`),
    );
}

function showNotification(message: JsonRpcMessage): void {
  if (!('method' in message)) return;
  const params = message.params ?? {};
  const detail = typeof params.uri === 'string' ? ` ${params.uri}` : '';
  ui.notifications.prepend(
    h(
      'li',
      { 'data-testid': 'notification' },
      `${new Date().toLocaleTimeString()} ${message.method}${detail}`,
    ),
  );
  while (ui.notifications.childElementCount > 50) ui.notifications.lastElementChild?.remove();
}

function stopListening(): void {
  listening?.abort();
  listening = undefined;
  ui.listen.textContent = 'Listen for changes';
}

/** Opens `subscriptions/listen` for list changes and the clock resource; a second click ends it. */
async function toggleListen(): Promise<void> {
  if (listening) return stopListening();
  if (!client) return;
  listening = new AbortController();
  ui.listen.textContent = 'Stop listening';
  const resourceSubscriptions = [...ui.resources.querySelectorAll('button')].map(
    (button) => button.textContent ?? '',
  );
  const notifications = {
    toolsListChanged: true,
    promptsListChanged: true,
    resourcesListChanged: true,
    resourceSubscriptions,
  };
  try {
    await client.call(
      'subscriptions/listen',
      { notifications },
      { onRelated: showNotification, signal: listening.signal },
    );
  } catch (failure) {
    if (listening && !listening.signal.aborted)
      showNotification({ jsonrpc: '2.0', method: `listen ended: ${String(failure)}` });
  } finally {
    if (listening?.signal.aborted !== false) stopListening();
  }
}

ui.form.addEventListener('submit', (event) => {
  event.preventDefault();
  if (ui.connect.dataset.action === 'disconnect') disconnect();
  else void connect();
});
ui.transport.addEventListener('change', updateConnectButton);
ui.listen.addEventListener('click', () => void toggleListen());
byId('clear-client-traffic').addEventListener('click', () => traffic.clear());
byId('clear-server-traffic').addEventListener('click', () => serverTraffic.clear());
byId('clear-event-feed').addEventListener('click', () => events.clearFeed());
serverTraffic.open();
void connect();
