import { z } from 'zod';
import { createServer, type Middleware, type RondoServer } from '@rondo/core';
import { tasks } from '@rondo/tasks';
import {
  contents,
  formElicitation,
  inputRequest,
  inputRequired,
  message,
  messages,
  text,
  textContent,
} from '@rondo/protocol';

/**
 * The servers of the mount tests: `weather`, mounted with namespace `weather` and prefixed URIs
 * into `main`. Each has a middleware that writes what it saw into `seen` (`outer` / `inner`,
 * the method and the name or URI), so the tests can tell the order and the names each sees.
 */
export interface MountedPair {
  main: RondoServer;
  weather: RondoServer;
  seen: string[];
}

function recorder(label: string, seen: string[]): Middleware {
  return (call, next) => {
    const ref = call.params.ref as { name?: unknown } | undefined;
    const target = [call.params.name, call.params.uri, ref?.name].find(
      (v) => typeof v === 'string',
    );
    if (call.method !== 'tools/list') seen.push(`${label} ${call.method} ${String(target)}`);
    return next();
  };
}

/** A fresh pair: `main` (tool `hello`) mounting `weather` as `weather`, URIs prefixed. */
export function mountedPair(): MountedPair {
  const seen: string[] = [];
  const weather = createServer({ name: 'weather', version: '1.0.0', log: () => undefined })
    .tool(
      'get',
      { description: 'The weather in a city', input: z.object({ city: z.string() }) },
      ({ city }) => text(`Sunny in ${city}`),
    )
    .tool('confirm', { description: 'Asks before it answers' }, (_args, ctx) => {
      const answer = ctx.inputResponses.ok;
      if (answer?.kind !== 'accept') {
        const form = { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] };
        return inputRequired([inputRequest('ok', formElicitation('Really?', form))]);
      }
      return text(`confirmed: ${JSON.stringify(answer.content.ok)} in round ${ctx.round}`);
    })
    .tool(
      'forecast',
      { description: 'A slow forecast', input: z.object({ days: z.number() }), task: 'optional' },
      async ({ days }, ctx) => {
        ctx.progress(1, 2);
        await new Promise((resolve) => setTimeout(resolve, 50));
        return text(`${days} days of sun`);
      },
    )
    .tool('plan', { description: 'Asks inside a task', task: 'required' }, (_args, ctx) => {
      const answer = ctx.inputResponses.go;
      if (answer?.kind !== 'accept') {
        const form = { type: 'object', properties: { go: { type: 'boolean' } }, required: ['go'] };
        return inputRequired([inputRequest('go', formElicitation('Go ahead?', form))]);
      }
      return text(`planned: ${JSON.stringify(answer.content.go)}`);
    })
    .prompt('ask', { arguments: z.object({ city: z.string().describe('The city') }) }, ({ city }) =>
      messages([message('user', `What is the weather in ${city}?`)]),
    )
    .completion({ prompt: 'ask' }, 'city', (value) =>
      ['Oslo', 'Bergen', 'Bodø'].filter((city) => city.startsWith(value)),
    )
    .resource('file:///today.txt', { name: 'today', mimeType: 'text/plain' }, (uri) =>
      contents([textContent(uri, 'text/plain', 'rain')]),
    )
    .resourceTemplate('file:///days/{day}', { name: 'day', mimeType: 'text/plain' }, (uri, v) =>
      contents([textContent(uri, 'text/plain', `day ${String(v.day)}`)]),
    )
    .use(recorder('inner', seen));
  const main = createServer({ name: 'main', version: '1.0.0', log: () => undefined })
    .tool('hello', {}, () => text('hello'))
    .use(recorder('outer', seen))
    // The host runs the mounted tools' tasks.
    .use(tasks())
    .mount(weather, { namespace: 'weather', resources: 'prefix' });
  return { main, weather, seen };
}
