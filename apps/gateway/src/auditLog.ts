import { createWriteStream, type WriteStream } from 'node:fs';
import type { UpstreamCallRecord } from '@rondo/proxy';

/**
 * The audit trail: one JSON line per call to an upstream (each round of a call that asked its
 * caller is a line of its own): when, who (the caller's principal and client), which upstream
 * and tool (or prompt, or resource), the outcome with its error, how long, and which round.
 * Arguments and results are never written. To standard error (`--audit stderr`) or appended to
 * a file (`--audit FILE`).
 */
export class AuditLog {
  private readonly file: WriteStream | undefined;

  constructor(readonly destination: string) {
    this.file =
      destination === 'stderr' ? undefined : createWriteStream(destination, { flags: 'a' });
  }

  /** Writes the line of one call (`ProxyWatch.onCall`). */
  readonly record = (record: UpstreamCallRecord): void => {
    const line = `${JSON.stringify(auditLine(record))}\n`;
    if (this.file) this.file.write(line);
    else process.stderr.write(line);
  };

  /** Flushes and closes the file, if any. */
  close(): Promise<void> {
    const file = this.file;
    if (!file) return Promise.resolve();
    return new Promise((resolve) => file.end(resolve));
  }
}

/** The audit line of a call, its members in a fixed order. */
export function auditLine(record: UpstreamCallRecord): Record<string, unknown> {
  return {
    time: new Date().toISOString(),
    audit: 'call',
    principal: record.principal ?? null,
    client: record.client ?? null,
    upstream: record.upstream,
    method: record.method,
    name: record.name,
    outcome: record.outcome,
    ...(record.outcome === 'error'
      ? { error: { code: record.errorCode, message: record.errorMessage } }
      : {}),
    durationMs: Math.round(record.durationMs * 10) / 10,
    round: record.round,
    path: record.passedThrough ? 'pass-through' : 'translated',
  };
}
