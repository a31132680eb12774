/** How much the gateway says: each level includes the ones before it. */
export const LOG_LEVELS = ['error', 'warn', 'info', 'debug'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** `text`: one `rondo-gateway: ...` line each; `json`: one JSON object per line. */
export type LogFormat = 'text' | 'json';

/** Facts a log line carries besides its message (JSON members; left out of text lines). */
export type LogFields = Readonly<Record<string, string | number | boolean | undefined>>;

/**
 * The gateway's diagnostics on standard error (never stdout, which carries JSON-RPC on stdio): one
 * line per event, in text or JSON, below a level.
 */
export class GatewayLog {
  private readonly threshold: number;

  constructor(
    readonly format: LogFormat = 'text',
    level: LogLevel = 'info',
    private readonly write: (line: string) => void = (line) => void process.stderr.write(line),
  ) {
    this.threshold = LOG_LEVELS.indexOf(level);
  }

  error(event: string, message: string, fields?: LogFields): void {
    this.emit('error', event, message, fields);
  }

  warn(event: string, message: string, fields?: LogFields): void {
    this.emit('warn', event, message, fields);
  }

  info(event: string, message: string, fields?: LogFields): void {
    this.emit('info', event, message, fields);
  }

  debug(event: string, message: string, fields?: LogFields): void {
    this.emit('debug', event, message, fields);
  }

  /** A plain line sink at `level`, for parts that only know how to say a sentence. */
  sink(level: LogLevel, event: string): (message: string) => void {
    return (message) => this.emit(level, event, message);
  }

  private emit(level: LogLevel, event: string, message: string, fields: LogFields = {}): void {
    if (LOG_LEVELS.indexOf(level) > this.threshold) return;
    if (this.format === 'text') {
      this.write(`rondo-gateway: ${message}\n`);
      return;
    }
    const line = { time: new Date().toISOString(), level, event, message, ...fields };
    this.write(`${JSON.stringify(line)}\n`);
  }
}
