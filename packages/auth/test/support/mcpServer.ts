import { createServer, serve, text, type RunningServer } from '@rondo/server';
import type { TokenVerifier } from '@rondo/core';

/** The canonical URL of the MCP server under test: the audience its tokens must name. */
export const RESOURCE = 'https://mcp.example.com/mcp';

/** Starts a real Rondo HTTP server on 127.0.0.1 whose `whoami` tool answers the principal. */
export async function serveWithVerifier(
  verifyToken: TokenVerifier,
  issuer: string,
): Promise<RunningServer<'http'>> {
  const server = createServer({ name: 'auth-test', version: '1.0.0', log: () => undefined }).tool(
    'whoami',
    { description: 'Who the caller is' },
    (_args, ctx) => text(JSON.stringify(ctx.principal ?? null)),
  );
  return serve(server, {
    transport: 'http',
    host: '127.0.0.1',
    auth: { resource: RESOURCE, authorizationServers: [issuer], verifyToken },
  });
}

/** What one call of `whoami` got on the wire. */
export interface WireAnswer {
  status: number;
  challenge: string | null;
  retryAfter: string | null;
  body: { result?: { content: { text: string }[] }; error?: { message: string } };
}

/** Calls `whoami` as a modern-era client over plain HTTP with the bearer token given. */
export async function callWhoami(url: string, token: string): Promise<WireAnswer> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'whoami',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name: 'whoami',
        arguments: {},
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    }),
  });
  return {
    status: response.status,
    challenge: response.headers.get('www-authenticate'),
    retryAfter: response.headers.get('retry-after'),
    body: (await response.json()) as WireAnswer['body'],
  };
}

/** The principal `whoami` answered. */
export function principalOf(answer: WireAnswer): Record<string, unknown> {
  return JSON.parse(answer.body.result?.content[0]?.text ?? 'null') as Record<string, unknown>;
}

/** The `error_description` of a `WWW-Authenticate` challenge. */
export function descriptionOf(answer: WireAnswer): string | undefined {
  return /error_description="([^"]*)"/.exec(answer.challenge ?? '')?.[1];
}
