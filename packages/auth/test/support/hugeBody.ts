import type { ServerResponse } from 'node:http';

const TEN_MB = 10 * 1024 * 1024;

/**
 * Answers 10 MB of JSON-looking bytes, written as the reader drains them, with the headers sent
 * first. With `declareLength` the size is announced in `Content-Length`; without, the body is
 * chunked and only counting the bytes read can stop it.
 */
export function sendTenMegabytes(res: ServerResponse, declareLength: boolean): void {
  res.writeHead(200, {
    'content-type': 'application/json',
    ...(declareLength ? { 'content-length': String(TEN_MB) } : {}),
  });
  res.flushHeaders();
  const chunk = 'x'.repeat(64 * 1024);
  let sent = 0;
  res.on('close', () => (sent = TEN_MB));
  const more = (): void => {
    while (sent < TEN_MB) {
      sent += chunk.length;
      if (!res.write(chunk)) {
        res.once('drain', more);
        return;
      }
    }
    res.end();
  };
  more();
}
