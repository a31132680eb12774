import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { scaled } from '@rondo/test-support/timeFactor';

/** A complete HTTP response. */
export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- test bodies are read by shape
  json(): any;
}

export interface RawRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** The source address to send from (`127.0.0.2`, say, to look like another client). */
  localAddress?: string;
}

/** The headers a well-behaved client sends with a JSON-RPC POST. */
export const JSON_POST = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
};

/** Sends one request with full control of the headers (Host included) and reads the whole body. */
export function send(url: string, options: RawRequest = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      {
        method: options.method ?? 'POST',
        headers: options.headers ?? {},
        ...(options.localAddress ? { localAddress: options.localAddress } : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text,
            json: () => JSON.parse(text),
          });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/** POSTs one JSON-RPC message with the standard headers. */
export function post(
  url: string,
  message: unknown,
  headers: Record<string, string> = {},
): Promise<RawResponse> {
  return send(url, { headers: { ...JSON_POST, ...headers }, body: JSON.stringify(message) });
}

/** One parsed SSE event. */
export interface ParsedEvent {
  id?: string;
  retry?: number;
  data: string;
}

/** Parses a complete SSE body into events (comments skipped). */
export function parseSse(text: string): ParsedEvent[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '' && !block.startsWith(':'))
    .map((block) => {
      const event: ParsedEvent = { data: '' };
      for (const line of block.split('\n')) {
        const [field, ...rest] = line.split(':');
        const value = rest.join(':').replace(/^ /, '');
        if (field === 'id') event.id = value;
        if (field === 'retry') event.retry = Number(value);
        if (field === 'data') event.data += value;
      }
      return event;
    });
}

/** An open streaming response whose SSE events can be awaited one by one. */
export interface OpenStream {
  status: number;
  headers: IncomingHttpHeaders;
  next(timeoutMs?: number): Promise<ParsedEvent>;
  close(): void;
}

/** Opens a request whose response is read incrementally as SSE. */
export function openStream(url: string, options: RawRequest = {}): Promise<OpenStream> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      {
        method: options.method ?? 'POST',
        headers: options.headers ?? {},
        ...(options.localAddress ? { localAddress: options.localAddress } : {}),
      },
      (res) => {
        let buffer = '';
        const queue: ParsedEvent[] = [];
        const waiters: ((event: ParsedEvent) => void)[] = [];
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          buffer += chunk;
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const [event] = parseSse(buffer.slice(0, end + 2));
            buffer = buffer.slice(end + 2);
            if (!event) continue;
            const waiter = waiters.shift();
            if (waiter) waiter(event);
            else queue.push(event);
          }
        });
        res.on('error', () => undefined);
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          next: (timeoutMs = scaled(3000)) =>
            new Promise((resolveEvent, rejectEvent) => {
              const queued = queue.shift();
              if (queued) return resolveEvent(queued);
              const timer = setTimeout(
                () => rejectEvent(new Error('no SSE event in time')),
                timeoutMs,
              );
              waiters.push((event) => {
                clearTimeout(timer);
                resolveEvent(event);
              });
            }),
          close: () => req.destroy(),
        });
      },
    );
    req.on('error', (error) => reject(error));
    req.end(options.body);
  });
}

/** Waits until `predicate` holds, polling. */
export async function until(predicate: () => boolean, timeoutMs = scaled(3000)): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
