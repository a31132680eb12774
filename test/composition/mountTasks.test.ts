import { Client, httpTransport } from '@rondo/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpServerHandle } from '@rondo/transport-http';
import { serveBothEras } from '../support/officialClients.js';
import { mountedPair, type MountedPair } from './mountServers.js';

// Issue 26, Mount: a mounted tool with task support runs as a task of the host (the Tasks
// extension, 2026-07-28), input asked inside the task included; a legacy client calls the same
// tools as ordinary calls. @rondo/client over Streamable HTTP.
describe('tasks of a mounted server', () => {
  let pair: MountedPair;
  let handle: HttpServerHandle;
  const clients: Client[] = [];
  beforeAll(async () => {
    pair = mountedPair();
    handle = await serveBothEras(pair.main);
  });
  afterAll(async () => {
    for (const client of clients) await client.close();
    await handle.close();
  });

  async function connect(era: '2026-07-28' | '2025-11-25'): Promise<Client> {
    const client = new Client({
      transport: httpTransport({ url: handle.url }),
      era,
      handlers: { elicitation: () => ({ action: 'accept', content: { go: true } }) },
    });
    await client.connect();
    clients.push(client);
    return client;
  }

  it('runs a mounted task-optional tool as a task of the host, modern era', async () => {
    const client = await connect('2026-07-28');
    const task = await client.callToolAsTask('weather_forecast', { days: 3 });
    expect(task.created.status).toBe('working');
    const result = await task.result();
    expect(result.content).toEqual([{ type: 'text', text: '3 days of sun' }]);
    expect(pair.seen).toContain('inner tools/call forecast');
  });

  it('asks the client inside a mounted task (tasks/update) and finishes it', async () => {
    const client = await connect('2026-07-28');
    const task = await client.callToolAsTask('weather_plan');
    const result = await task.result();
    expect(result.content).toEqual([{ type: 'text', text: 'planned: true' }]);
  });

  it('calls the same tools as ordinary calls in the legacy era', async () => {
    const client = await connect('2025-11-25');
    const forecast = await client.callTool('weather_forecast', { days: 2 });
    expect(forecast.content).toEqual([{ type: 'text', text: '2 days of sun' }]);
    const plan = await client.callTool('weather_plan');
    expect(plan.content).toEqual([{ type: 'text', text: 'planned: true' }]);
  });
});
