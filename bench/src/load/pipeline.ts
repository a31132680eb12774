import type { Driver, SliceResult } from './slice.js';
import { quantile } from './slice.js';

/** A message channel to a server: stdio lines or WebSocket frames. */
export interface MessageChannel {
  /** Sends messages; a stream transport writes them in one chunk. */
  send(messages: string[]): void;
  /** Receives every inbound message. */
  onMessage(receiver: (message: string) => void): void;
  close(): Promise<void>;
}

/** How a pipelining client keeps requests in flight. */
export interface PipelineLoad {
  /** Requests in flight. */
  window: number;
  /** `batch`: send `window` at once and wait for all; `continuous`: refill as each answer arrives. */
  mode: 'batch' | 'continuous';
  /** The request with this id. */
  request(id: number): string;
  /** True when an answer is the expected success (a wrong answer counts as an error). */
  accept(message: string): boolean;
}

const ID = /"id":(\d+)/;

/**
 * A driver that keeps `window` requests in flight on one channel for the slice's duration,
 * matching answers to requests by id and timing each one.
 */
export function pipelineDriver(channel: MessageChannel, load: PipelineLoad): Driver {
  const sentAt = new Map<number, number>();
  let nextId = 1;
  let onAnswer: (latencyMs: number, ok: boolean) => void = () => undefined;
  channel.onMessage((message) => {
    const id = Number(ID.exec(message)?.[1]);
    const started = sentAt.get(id);
    if (started === undefined) return;
    sentAt.delete(id);
    onAnswer(performance.now() - started, load.accept(message));
  });
  const issue = (count: number): void => {
    const messages: string[] = [];
    const now = performance.now();
    for (let i = 0; i < count; i++) {
      const id = nextId++;
      sentAt.set(id, now);
      messages.push(load.request(id));
    }
    channel.send(messages);
  };

  return (durationMs) =>
    new Promise<SliceResult>((resolve) => {
      const latencies: number[] = [];
      let errors = 0;
      const start = performance.now();
      const deadline = start + durationMs;
      onAnswer = (latencyMs, ok) => {
        latencies.push(latencyMs);
        if (!ok) errors++;
        // A batch refills only once all of it is answered; continuous refills one for one.
        if (load.mode === 'batch' && sentAt.size > 0) return;
        if (performance.now() < deadline) return issue(load.mode === 'batch' ? load.window : 1);
        if (sentAt.size > 0) return;
        latencies.sort((a, b) => a - b);
        resolve({
          requests: latencies.length,
          durationMs: performance.now() - start,
          p50: quantile(latencies, 0.5),
          p99: quantile(latencies, 0.99),
          errors,
        });
      };
      issue(load.window);
    });
}
