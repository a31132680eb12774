import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import { createDemoServer, type DemoServer } from '../src/demoServer.js';
import { startDemoHttp, type DemoHttpServer } from '../src/httpApp.js';

describe(
  'the demo providers with a legacy client (official SDK 1.x over HTTP)',
  { timeout: scaled(30_000) },
  () => {
    let demo: DemoServer;
    let web: DemoHttpServer;
    let client: Client;
    const asked: string[] = [];

    beforeAll(async () => {
      demo = await createDemoServer({ withoutProlog: true, log: () => {} });
      web = await startDemoHttp(demo.endpoint, {
        host: '127.0.0.1',
        port: 0,
        publicDir: '/nonexistent',
      });
      client = new Client(
        { name: 'legacy-test', version: '1.0.0' },
        { capabilities: { elicitation: {} } },
      );
      client.setRequestHandler(ElicitRequestSchema, async (request) => {
        asked.push(request.params.message);
        const answers: Record<string, Record<string, unknown>> = {
          destination: { destination: 'lisbon' },
          stay: { nights: 2 },
          activities: { activities: ['fado', 'tram'] },
        };
        const message = request.params.message;
        if (message.startsWith('Send a postcard'))
          return { action: 'accept', content: { confirm: true, delivery: 'express', copies: 1 } };
        const step = message.startsWith('Where')
          ? 'destination'
          : message.startsWith('How long')
            ? 'stay'
            : 'activities';
        return { action: 'accept', content: answers[step] as Record<string, string> };
      });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${web.url}/mcp`)));
    }, scaled(60_000));

    afterAll(async () => {
      await client?.close();
      await web?.close();
      await demo?.close();
    });

    it('confirms send_postcard through a real elicitation/create request (the legacy shim)', async () => {
      const result = await client.callTool({
        name: 'send_postcard',
        arguments: { to: 'Ada', message: 'Hello' },
      });
      expect(result.content).toEqual([
        { type: 'text', text: 'Postcard sent to Ada: 1 × express.' },
      ]);
      expect(asked).toContain('Send a postcard to Ada saying "Hello"?');
    });

    // The stay answer leaves `budget` out, so the advertised default (120.5) must be what is used.
    it('walks the plan_trip wizard through three elicitations, a left-out budget taking its default', async () => {
      const result = await client.callTool({ name: 'plan_trip', arguments: { traveller: 'Lin' } });
      expect(result.content).toEqual([
        { type: 'text', text: 'Trip for Lin: 2 nights in lisbon, doing fado, tram.' },
      ]);
      expect(result.structuredContent).toMatchObject({
        destination: 'lisbon',
        nights: 2,
        budget: 120.5,
        activities: ['fado', 'tram'],
      });
    });

    it('reads the resource template and completes its variable', async () => {
      const read = await client.readResource({ uri: 'demo://weather/kyoto' });
      const [content] = read.contents;
      expect(content && 'text' in content ? JSON.parse(content.text) : undefined).toMatchObject({
        city: 'kyoto',
      });
      const completion = await client.complete({
        ref: { type: 'ref/resource', uri: 'demo://weather/{city}' },
        argument: { name: 'city', value: 'ky' },
      });
      expect(completion.completion.values).toEqual(['kyoto']);
    });

    it('gets the haiku prompt with its arguments', async () => {
      const prompt = await client.getPrompt({
        name: 'haiku',
        arguments: { topic: 'rain', mood: 'calm' },
      });
      expect(prompt.messages[0]?.content).toEqual({
        type: 'text',
        text: 'Write a calm haiku about rain.',
      });
    });
  },
);
