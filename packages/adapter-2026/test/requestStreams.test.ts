import { afterEach, describe, expect, it } from 'vitest';
import { ModernClient, type WireJson, meta } from './support/modernClient.js';
import { buildTestServer } from './support/testServer.js';

const clients: ModernClient[] = [];
function client(): ModernClient {
  const created = new ModernClient(buildTestServer());
  clients.push(created);
  return created;
}
afterEach(() => {
  for (const used of clients.splice(0)) used.expectValidWire();
});

const LOG_LEVEL = 'io.modelcontextprotocol/logLevel';

describe('progress and logging on the request’s own exchange', () => {
  it('sends no progress and no log without a progress token or a log level', async () => {
    const c = client();
    const record = c.open('tools/call', { name: 'observe', arguments: {} });
    await record.ended;
    expect(record.sent).toEqual([]);
    expect(c.memory.peerMessages).toEqual([]);
  });

  it('sends increasing progress with the request’s token', async () => {
    const c = client();
    const record = c.open(
      'tools/call',
      { name: 'observe' },
      { meta: meta(undefined, { progressToken: 'progress-test-1' }) },
    );
    await record.ended;
    expect(
      record.sent.map((m: WireJson) => [m.method, m.params.progressToken, m.params.progress]),
    ).toEqual([
      ['notifications/progress', 'progress-test-1', 0],
      ['notifications/progress', 'progress-test-1', 50],
      ['notifications/progress', 'progress-test-1', 100],
    ]);
    expect((record.sent[0] as WireJson).params).toMatchObject({ total: 100, message: 'start' });
  });

  it('sends log messages at or above the requested level, before the answer', async () => {
    const c = client();
    const record = c.open(
      'tools/call',
      { name: 'observe' },
      { meta: meta(undefined, { [LOG_LEVEL]: 'info' }) },
    );
    await record.ended;
    expect(record.sent.map((m: WireJson) => [m.method, m.params.level])).toEqual([
      ['notifications/message', 'info'],
      ['notifications/message', 'error'],
    ]);
    expect((record.sent[1] as WireJson).params).toEqual({
      level: 'error',
      data: { problem: 'error line' },
      logger: 'observer',
    });
    const errorsOnly = c.open(
      'tools/call',
      { name: 'observe' },
      { meta: meta(undefined, { [LOG_LEVEL]: 'emergency' }) },
    );
    await errorsOnly.ended;
    expect(errorsOnly.sent).toEqual([]);
  });
});

describe('cancellation', () => {
  it('aborts the handler’s signal on notifications/cancelled and sends no answer', async () => {
    const c = client();
    const record = c.open('tools/call', { name: 'wait_for_cancel' });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(c.memory.connection.inFlight).toBe(1);
    c.notify('notifications/cancelled', {
      requestId: record.id,
      reason: 'User requested cancellation',
    });
    expect(await record.ended).toBeUndefined();
    expect(c.memory.connection.inFlight).toBe(0);
  });

  it('aborts the handler’s signal when the exchange’s signal aborts', async () => {
    const c = client();
    const record = c.open('tools/call', { name: 'wait_for_cancel' });
    await new Promise((resolve) => setTimeout(resolve, 10));
    record.abort();
    expect(await record.ended).toBeUndefined();
    expect(c.memory.connection.inFlight).toBe(0);
  });

  it('ignores a cancellation of an unknown or finished request', async () => {
    const c = client();
    await c.result('tools/list');
    c.notify('notifications/cancelled', { requestId: 1 });
    c.notify('notifications/cancelled', { requestId: 'never-sent' });
    expect((await c.result('tools/list')).resultType).toBe('complete');
  });

  it('aborts in-flight requests when the connection closes', async () => {
    const c = client();
    const record = c.open('tools/call', { name: 'wait_for_cancel' });
    await new Promise((resolve) => setTimeout(resolve, 10));
    c.memory.connection.close();
    expect(await record.ended).toBeUndefined();
  });
});
