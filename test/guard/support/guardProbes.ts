import { randomBytes } from 'node:crypto';
import { request } from 'node:http';

/** What a server answered: `allowed`, or the status of its refusal. */
export type Outcome = 'allowed' | number;

/** The headers a case sends; `host: undefined` sends no Host header at all. */
export interface ProbeHeaders {
  host: string | undefined;
  origin?: string;
}

const DISCOVER = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'server/discover',
  params: {
    _meta: {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
    },
  },
});

function headersOf(probe: ProbeHeaders): Record<string, string> {
  return {
    ...(probe.host === undefined ? {} : { host: probe.host }),
    ...(probe.origin === undefined ? {} : { origin: probe.origin }),
  };
}

/** A modern `server/discover` POST to 127.0.0.1:`port``path`; allowed means 200. */
export function postOutcome(port: number, path: string, probe: ProbeHeaders): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        setHost: false,
        headers: {
          ...headersOf(probe),
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': 'server/discover',
        },
      },
      (response) => {
        response.resume();
        response.on('end', () =>
          resolve(response.statusCode === 200 ? 'allowed' : (response.statusCode ?? 0)),
        );
      },
    );
    req.on('error', reject);
    req.end(DISCOVER);
  });
}

/** A WebSocket upgrade offering `mcp` to 127.0.0.1:`port``path`; allowed means 101. */
export function upgradeOutcome(port: number, path: string, probe: ProbeHeaders): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const req = request({
      host: '127.0.0.1',
      port,
      path,
      setHost: false,
      headers: {
        ...headersOf(probe),
        connection: 'Upgrade',
        upgrade: 'websocket',
        'sec-websocket-version': '13',
        'sec-websocket-key': randomBytes(16).toString('base64'),
        'sec-websocket-protocol': 'mcp',
      },
    });
    req.on('upgrade', (response, socket) => {
      socket.destroy();
      resolve(response.statusCode === 101 ? 'allowed' : (response.statusCode ?? 0));
    });
    req.on('response', (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}
