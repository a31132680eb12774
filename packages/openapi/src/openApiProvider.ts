import type { Arguments, HandlerContext, Provider, ToolDefinition, ToolOutcome } from '@rondo/core';
import { Credentials, type SchemeCredentials } from './credentials.js';
import { OpenApiDocumentError } from './errors.js';
import { requestOf, resultOf, type CallSettings } from './operationCall.js';
import { operationsOf, type Operation, type OperationFilter } from './operations.js';
import { loadDocument } from './source.js';

/** Default time one call may take (ms). */
export const DEFAULT_TIMEOUT_MS = 30_000;
/** Default largest answer read (bytes); past it the call is a tool error. */
export const DEFAULT_MAX_RESPONSE_BYTES = 10 * 1024 * 1024;

/** How an OpenAPI document is served as tools. */
export interface OpenApiOptions extends OperationFilter {
  /** The document: a file path, an http(s) URL, or the parsed object. */
  readonly source: string | object;
  /** Where calls go; default the document's first server URL (resolved against a URL source). */
  readonly baseUrl?: string;
  /** A name for logs and errors (default the document's title). */
  readonly name?: string;
  /** Time one call may take (ms), default 30,000; per tool name in `timeouts`. */
  readonly timeoutMs?: number;
  readonly timeouts?: Readonly<Record<string, number>>;
  /** Largest answer read (bytes), default 10 MiB. */
  readonly maxResponseBytes?: number;
  /** Credentials by security scheme name (API key, bearer token, basic, OAuth client credentials). */
  readonly auth?: Readonly<Record<string, SchemeCredentials>>;
  /** Headers sent with every call. */
  readonly headers?: Readonly<Record<string, string>>;
  /** The fetch calls are made with (default the global one). */
  readonly fetch?: typeof fetch;
}

/**
 * A provider whose tools are the operations of an OpenAPI 3.0 or 3.1 document; each call is an
 * HTTP request made with `fetch` to the base URL, bounded in time and in the size of its answer.
 */
export class OpenApiProvider implements Provider {
  private readonly byName: ReadonlyMap<string, Operation>;

  constructor(
    readonly name: string,
    readonly operations: readonly Operation[],
    private readonly settings: CallSettings,
    private readonly credentials: Credentials,
    private readonly timeouts: Readonly<Record<string, number>>,
  ) {
    this.byName = new Map(operations.map((operation) => [operation.tool.name, operation]));
  }

  tools(): ToolDefinition[] {
    return this.operations.map((operation) => operation.tool);
  }

  async callTool(name: string, args: Arguments, ctx: HandlerContext): Promise<ToolOutcome> {
    const operation = this.byName.get(name);
    if (operation === undefined) return { kind: 'error', text: `Unknown operation: ${name}` };
    const timeoutMs = this.timeouts[name] ?? this.settings.timeoutMs;
    const signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(timeoutMs)]);
    try {
      const credentials = await this.credentials.apply(operation.security, signal);
      const { url, init } = requestOf(operation, args, credentials, this.settings);
      const response = await this.settings.fetch(url, { ...init, signal, redirect: 'manual' });
      return await resultOf(operation, response, this.settings.maxResponseBytes);
    } catch (failure) {
      if (signal.aborted && !ctx.signal.aborted)
        return {
          kind: 'error',
          text: `${operation.method.toUpperCase()} ${operation.path}: no answer within ${timeoutMs} ms`,
        };
      throw failure;
    }
  }
}

/**
 * Loads an OpenAPI document and makes its provider: one tool per operation kept by the filter.
 * Throws {@link OpenApiDocumentError} for a document it cannot read or serve.
 */
export async function openApiProvider(options: OpenApiOptions): Promise<OpenApiProvider> {
  const fetcher = options.fetch ?? fetch;
  const { document, url } = await loadDocument(options.source, { fetch: fetcher });
  const baseUrl = baseUrlOf(document, url, options.baseUrl);
  const components = (document.components ?? {}) as { securitySchemes?: Record<string, never> };
  const credentials = new Credentials(
    components.securitySchemes ?? {},
    options.auth ?? {},
    fetcher,
    baseUrl,
  );
  const info = (document.info ?? {}) as { title?: string };
  return new OpenApiProvider(
    options.name ?? info.title ?? 'openapi',
    operationsOf(document, options),
    {
      baseUrl,
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      maxResponseBytes: options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
      headers: options.headers ?? {},
      fetch: fetcher,
    },
    credentials,
    options.timeouts ?? {},
  );
}

function baseUrlOf(
  document: Record<string, unknown>,
  sourceUrl: string | undefined,
  given: string | undefined,
): string {
  if (given !== undefined) return given;
  const servers = (document.servers ?? []) as { url?: string }[];
  const first = servers[0]?.url;
  if (first === undefined || first.includes('{'))
    throw new OpenApiDocumentError('the document names no usable server URL: give baseUrl');
  try {
    return new URL(first, sourceUrl).toString();
  } catch {
    throw new OpenApiDocumentError(
      `the server URL ${JSON.stringify(first)} is relative: give baseUrl`,
    );
  }
}
