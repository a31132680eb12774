import { describe, expect, it } from 'vitest';
import { watchAbort } from '../src/fetchAbort.js';
import { hostOfUrl, lazyHeaders, pathOfUrl } from '../src/fetchRequest.js';

// The fetch edge reads a web `Request` without building what it does not use: the path from the
// URL string, the headers one by one as they are asked for, the signal only for a response still
// open at the next turn. Each gives what the eager reading gave.

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('the path and host of a request URL', () => {
  it('match what the URL parser gives for serialised request URLs', () => {
    for (const url of [
      'http://127.0.0.1:3000/mcp',
      'http://example.com/mcp?x=1&y=/z',
      'https://example.com/a/b/#frag?not-query',
      'http://example.com',
      'http://user:pw@example.com:8080/mcp/',
      'http://[::1]:3000/mcp?x',
    ]) {
      const parsed = new URL(url);
      expect(pathOfUrl(url), url).toBe(parsed.pathname);
      expect(hostOfUrl(url), url).toBe(parsed.host);
    }
  });
});

describe('lazyHeaders', () => {
  const url = 'http://127.0.0.1:3000/mcp';

  it('reads each header when asked, and lists them all when enumerated', () => {
    const headers = new Headers({ 'Content-Type': 'application/json', 'X-Many': 'a' });
    headers.append('x-many', 'b');
    const view = lazyHeaders(headers, url);
    expect(view['content-type']).toBe('application/json');
    expect(view['x-many']).toBe('a, b');
    expect(view.origin).toBeUndefined();
    // A name no header can carry is simply absent, not an exception.
    expect(view['not a header']).toBeUndefined();
    expect({ ...view }).toEqual({
      'content-type': 'application/json',
      'x-many': 'a, b',
      host: '127.0.0.1:3000',
    });
    expect('x-many' in view).toBe(true);
    expect('origin' in view).toBe(false);
  });

  it("falls back to the URL's host, and keeps the Host header when there is one", () => {
    expect(lazyHeaders(new Headers(), url).host).toBe('127.0.0.1:3000');
    expect(lazyHeaders(new Headers({ host: 'example.com' }), url).host).toBe('example.com');
  });

  it('is read-only: the shared code cannot change what the client sent', () => {
    const view = lazyHeaders(new Headers({ accept: 'text/event-stream' }), url) as Record<
      string,
      string
    >;
    expect(() => {
      view.accept = 'application/json';
    }).toThrow(TypeError);
    expect(view.accept).toBe('text/event-stream');
  });
});

describe('watchAbort', () => {
  it('sees an abort that came before the signal was first read', async () => {
    const controller = new AbortController();
    let reads = 0;
    const request = {
      get signal() {
        reads += 1;
        return controller.signal;
      },
    };
    const aborted: string[] = [];
    watchAbort(request, () => aborted.push('early'), false);
    controller.abort();
    expect(reads).toBe(0);
    await nextTurn();
    expect(aborted).toEqual(['early']);
  });

  it('never reads the signal of a response settled in its turn, and listens to the others', async () => {
    let reads = 0;
    const controller = new AbortController();
    const request = {
      get signal() {
        reads += 1;
        return controller.signal;
      },
    };
    const aborted: string[] = [];
    watchAbort(request, () => aborted.push('settled'), false).stop();
    watchAbort(request, () => aborted.push('open'), false);
    await nextTurn();
    expect(reads).toBe(1);
    controller.abort();
    expect(aborted).toEqual(['open']);
  });

  it('listens at once when eager (a Worker), and stops listening when stopped', () => {
    const controller = new AbortController();
    const aborted: string[] = [];
    const watch = watchAbort(controller, () => aborted.push('eager'), true);
    watch.stop();
    controller.abort();
    expect(aborted).toEqual([]);
    const other = new AbortController();
    watchAbort(other, () => aborted.push('eager'), true);
    other.abort();
    expect(aborted).toEqual(['eager']);
  });
});
