import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A self-signed certificate for 127.0.0.1 and localhost, made by the `openssl` CLI. */
export interface SelfSigned {
  readonly cert: string;
  readonly key: string;
  /** Where `cert` is written, for `NODE_EXTRA_CA_CERTS`. */
  readonly certFile: string;
  /** Deletes the files. */
  remove(): void;
}

/** Makes a fresh self-signed certificate (EC P-256, a day) valid for 127.0.0.1 and localhost. */
export function selfSignedCertificate(): SelfSigned {
  const dir = mkdtempSync(join(tmpdir(), 'rondo-cert-'));
  const certFile = join(dir, 'cert.pem');
  const keyFile = join(dir, 'key.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
      '-keyout',
      keyFile,
      '-out',
      certFile,
    ],
    { stdio: 'ignore' },
  );
  return {
    cert: readFileSync(certFile, 'utf8'),
    key: readFileSync(keyFile, 'utf8'),
    certFile,
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** One request a receiver took: its headers and raw body. */
export interface ReceivedRequest {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** An HTTPS server on 127.0.0.1 that records each request and answers what `answer` says. */
export interface HttpsReceiver {
  /** `https://127.0.0.1:<port>`. */
  readonly origin: string;
  readonly received: ReceivedRequest[];
  /** The status of the next answers (default 204); change it while the test runs. */
  answer: (request: ReceivedRequest) => number;
  /** Resolves once `count` requests satisfy `test`. */
  waitFor(test: (request: ReceivedRequest) => boolean, count?: number): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
}

/** Starts an {@link HttpsReceiver} with the given certificate. */
export async function httpsReceiver(certificate: SelfSigned): Promise<HttpsReceiver> {
  const received: ReceivedRequest[] = [];
  const waiters = new Set<() => void>();
  const receiver: { answer: (request: ReceivedRequest) => number } = { answer: () => 204 };
  const server: Server = createServer(
    { cert: certificate.cert, key: certificate.key },
    (request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      request.on('end', () => {
        const taken = { path: request.url ?? '/', headers: request.headers, body };
        received.push(taken);
        response.writeHead(receiver.answer(taken)).end();
        for (const waiter of [...waiters]) waiter();
      });
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return Object.assign(receiver, {
    origin: `https://127.0.0.1:${port}`,
    received,
    waitFor(test: (request: ReceivedRequest) => boolean, count = 1) {
      return new Promise<ReceivedRequest[]>((resolve) => {
        const check = (): void => {
          const matching = received.filter(test);
          if (matching.length < count) return;
          waiters.delete(check);
          resolve(matching);
        };
        waiters.add(check);
        check();
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
