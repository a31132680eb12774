import { serializeMessage, type JsonRpcMessage } from '@rondo/protocol';
import type { Endpoint } from '@rondo/core';
import { MessageChannel } from '@rondo/core/internal';
import { consoleToStderr } from './consoleToStderr.js';
import { LineFramer, frameError, type FrameEvent } from './lineFramer.js';
import {
  DEFAULT_DRAIN_TIMEOUT_MS,
  DEFAULT_MAX_LINE_BYTES,
  logToStderr,
  type StdioOptions,
  type StdioServer,
} from './options.js';

/**
 * Serves an endpoint over newline-delimited JSON-RPC on stdin/stdout: one connection for the life of
 * the process, many requests in flight, answers written as they complete, reading paused while the
 * output is full. End of input drains in-flight work, then resolves `closed`. While it serves on
 * `process.stdout`, the console writes to stderr (see {@link StdioOptions.consoleToStderr}).
 */
export function serveStdio(endpoint: Endpoint, options: StdioOptions = {}): StdioServer {
  return new StdioSession(endpoint, options).start();
}

class StdioSession {
  private readonly input: NodeJS.ReadableStream;
  private readonly output: NodeJS.WritableStream;
  private readonly framer: LineFramer;
  private readonly report: (error: Error) => void;
  private readonly channel: MessageChannel;
  private inputEnded = false;
  private waitingForDrain = false;
  /** Lines written this turn, flushed together by {@link flush}. */
  private batch = '';
  private flushScheduled = false;
  private finished = false;
  private drainTimer: NodeJS.Timeout | undefined;
  private restoreConsole: (() => void) | undefined;
  private resolveClosed!: () => void;
  private readonly closed = new Promise<void>((resolve) => (this.resolveClosed = resolve));

  constructor(
    endpoint: Endpoint,
    private readonly options: StdioOptions,
  ) {
    ({ input: this.input = process.stdin, output: this.output = process.stdout } = options);
    this.framer = new LineFramer(options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES);
    this.report = options.onError ?? logToStderr;
    this.channel = new MessageChannel(endpoint, {
      write: (message) => this.write(message),
      onReceiveFailure: this.report,
    });
  }

  start(): StdioServer {
    this.channel.exchanges.onIdle(() => {
      if (this.inputEnded) void this.finish();
    });
    this.input.on('data', this.onData);
    this.input.once('end', this.onEnd);
    // Both kept for the session's whole life: an 'error' nobody listens to crashes the process.
    this.input.on('error', this.onInputError);
    this.output.on('error', this.onOutputError);
    if (this.options.consoleToStderr ?? this.output === process.stdout)
      this.restoreConsole = consoleToStderr();
    return { closed: this.closed, close: () => this.finish() };
  }

  private readonly onData = (chunk: Buffer | string): void => {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    for (const event of this.framer.push(bytes)) this.handle(event);
  };

  private readonly onEnd = (): void => {
    if (this.inputEnded) return;
    for (const event of this.framer.end()) this.handle(event);
    this.inputEnded = true;
    this.detachInput();
    if (this.channel.exchanges.size === 0) return void this.finish();
    // Clients wait a while for the exit after closing stdin; work still open past that is abandoned.
    this.drainTimer = setTimeout(() => {
      this.report(
        new Error(`${this.channel.exchanges.size} request(s) open after end of input; aborting`),
      );
      void this.finish();
    }, this.options.drainTimeoutMs ?? DEFAULT_DRAIN_TIMEOUT_MS);
  };

  private readonly onInputError = (error: Error): void => {
    if (this.finished) return;
    this.report(new Error(`input failed: ${error.message}`));
    this.onEnd();
  };

  private readonly onOutputError = (error: Error): void => {
    if (this.finished) return;
    // The reader went away (EPIPE): nothing can be answered any more.
    this.batch = '';
    this.report(new Error(`output failed: ${error.message}`));
    void this.finish();
  };

  private handle(event: FrameEvent): void {
    if (event.kind === 'line') this.channel.receiveText(event.text);
    else this.write(frameError(event));
  }

  private write(message: JsonRpcMessage): void {
    if (this.finished) return;
    // Answers settled in the same turn go out as one write: one syscall per batch, not per line.
    this.batch += `${serializeMessage(message)}\n`;
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(this.flush);
    }
  }

  private readonly flush = (): void => {
    this.flushScheduled = false;
    if (this.batch === '') return;
    const text = this.batch;
    this.batch = '';
    const writable = this.output.write(text);
    if (!writable && !this.waitingForDrain && !this.inputEnded && !this.finished) {
      // Backpressure: stop reading until the reader has caught up.
      this.waitingForDrain = true;
      this.input.pause();
      this.output.once('drain', () => {
        this.waitingForDrain = false;
        if (!this.inputEnded && !this.finished) this.input.resume();
      });
    }
  };

  private async finish(): Promise<void> {
    if (!this.finished) {
      this.flush();
      this.finished = true;
      clearTimeout(this.drainTimer);
      this.detachInput();
      this.channel.close();
      this.restoreConsole?.();
      this.resolveClosed();
    }
    return this.closed;
  }

  private detachInput(): void {
    this.input.off('data', this.onData);
    this.input.off('end', this.onEnd);
    this.input.pause();
  }
}
