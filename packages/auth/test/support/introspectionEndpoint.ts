import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sendTenMegabytes } from './hugeBody.js';

/** How the endpoint answers, switchable while a test runs. */
export type IntrospectionMode = 'serve' | 'hang' | 'huge';

export const CLIENT_ID = 'mcp-resource';
export const CLIENT_SECRET = 's3cret:with/odd chars';

/**
 * A local OAuth 2.0 introspection endpoint (RFC 7662) on 127.0.0.1: it authenticates the
 * resource server (HTTP Basic or form fields), answers each token from a table (unknown tokens
 * inactive) and counts the introspections it was asked.
 */
export class LocalIntrospectionEndpoint {
  readonly answers = new Map<string, Record<string, unknown>>();
  mode: IntrospectionMode = 'serve';
  calls = 0;
  /** How long each answer is held back, in ms. */
  delayMs = 0;
  /** When each introspection of a token the table lacks began (ms), and the most at once. */
  readonly unknownStarts: number[] = [];
  maxUnknownAtOnce = 0;
  #unknownAtOnce = 0;
  /** How the last caller authenticated. */
  lastClientAuth: 'basic' | 'post' | 'none' = 'none';
  readonly #hanging: ServerResponse[] = [];
  readonly #server = createServer((req, res) => void this.#answer(req, res));

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    return this;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}/introspect`;
  }

  async close(): Promise<void> {
    for (const res of this.#hanging) res.destroy();
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  async #answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let body = '';
    for await (const chunk of req) body += String(chunk);
    this.calls += 1;
    if (this.mode === 'hang') {
      this.#hanging.push(res);
      return;
    }
    if (this.mode === 'huge') {
      sendTenMegabytes(res, true);
      return;
    }
    const form = new URLSearchParams(body);
    if (!this.#authenticated(req, form)) {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: 'invalid_client' }));
      return;
    }
    const known = this.answers.get(form.get('token') ?? '');
    if (!known) {
      this.unknownStarts.push(Date.now());
      this.#unknownAtOnce += 1;
      this.maxUnknownAtOnce = Math.max(this.maxUnknownAtOnce, this.#unknownAtOnce);
    }
    if (this.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.delayMs));
    if (!known) this.#unknownAtOnce -= 1;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(known ?? { active: false }));
  }

  #authenticated(req: IncomingMessage, form: URLSearchParams): boolean {
    const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? '');
    if (basic) {
      this.lastClientAuth = 'basic';
      const [id, secret] = Buffer.from(basic[1]!, 'base64')
        .toString('utf8')
        .split(':')
        .map((part) => decodeURIComponent(part.replace(/\+/g, ' ')));
      return id === CLIENT_ID && secret === CLIENT_SECRET;
    }
    this.lastClientAuth = form.has('client_id') ? 'post' : 'none';
    return form.get('client_id') === CLIENT_ID && form.get('client_secret') === CLIENT_SECRET;
  }
}
