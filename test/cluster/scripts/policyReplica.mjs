// One replica of the policies cluster test: shared state in Redis, a rate limit of LIMIT calls per
// minute per principal counted in Redis, and a response cache in this process's memory that the
// change bus keeps fresh. `doc://shared` reads FILE; the tool `touch` announces it changed.
// Usage: node policyReplica.mjs <port> <redis url> <file> <limit>
import { readFileSync } from 'node:fs';
import { callTimeout, rateLimit, responseCache } from '@rondo/policies';
import { createRedisState } from '@rondo/redis';
import { contents, createServer, serve, text, textContent } from '@rondo/server';

const [port, redisUrl, file, limit] = process.argv.slice(2);
const resource = `http://127.0.0.1:${port}/mcp`;
const state = await createRedisState({ url: redisUrl, prefix: 'policies:' });
const server = createServer({
  name: 'policy-replica',
  version: '1.0.0',
  shared: state,
  requestState: { key: process.env.RONDO_STATE_KEY },
});
server
  .use(
    rateLimit({
      limit: Number(limit),
      windowMs: 60_000,
      methods: ['tools/call'],
      store: state.rateLimits,
    }),
  )
  .use(responseCache({ server, ttlMs: 600_000 }))
  .use(callTimeout({ ms: 10_000 }))
  .tool('whoami', {}, (_args, ctx) => text(`${ctx.principal?.id} at ${port}`))
  .tool('touch', {}, () => {
    server.resourceUpdated('doc://shared');
    return text(`touched at ${port}`);
  })
  .resource('doc://shared', { name: 'shared' }, (uri) =>
    contents([textContent(uri, 'text/plain', `${readFileSync(file, 'utf8')} from ${port}`)]),
  );
const running = await serve(server, {
  transport: 'http',
  port: Number(port),
  quiet: true,
  // Every replica sees the balancer's Host: the resource names the replica, the audience not.
  allowedHosts: 'any',
  auth: {
    resource,
    authorizationServers: ['https://auth.example'],
    verifyToken: (token) => ({ subject: token, scopes: [], audience: resource }),
  },
  stopOnSignals: ['SIGTERM', 'SIGINT'],
});
process.stderr.write(`policy replica: serving at ${running.url}\n`);
await running.closed;
await state.close();
process.exit(0);
