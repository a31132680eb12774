import {
  ErrorCode,
  McpError,
  MetaKey,
  isPlainObject,
  isValidId,
  type JsonObject,
  type RequestId,
} from '@rondo/protocol';
import type { LogLevel } from '@rondo/core';
import { isLogLevel } from '@rondo/core/internal';

/** What a modern request says about itself in `params._meta`, read and checked. */
export interface RequestMeta {
  readonly protocolVersion: string;
  readonly clientCapabilities: JsonObject;
  readonly clientInfo: { name: string; version: string } | undefined;
  /** The level the client opted in to; without it no log message is sent for the request. */
  readonly logLevel: LogLevel | undefined;
  /** The token progress notifications carry; without it no progress is sent. */
  readonly progressToken: RequestId | undefined;
}

/**
 * Reads the `_meta` every modern request must carry. A missing or malformed required key is
 * -32602 naming it, refused before the request runs (so HTTP answers 400). The version is only checked for
 * presence here: header agreement is checked before support (see {@link assertSupportedVersion}).
 * `missing` words the error when there is no `_meta` at all (made only then).
 */
export function readRequestMeta(
  params: Record<string, unknown> | undefined,
  missing: () => string = () => 'Invalid params: params._meta is required',
): RequestMeta {
  const meta = params?._meta;
  if (!isPlainObject(meta)) throw invalidMeta('_meta', missing());
  const protocolVersion = meta[MetaKey.protocolVersion];
  if (typeof protocolVersion !== 'string') {
    throw invalidMeta(
      MetaKey.protocolVersion,
      `Invalid params: _meta["${MetaKey.protocolVersion}"] is required`,
    );
  }
  const clientCapabilities = meta[MetaKey.clientCapabilities];
  if (!isPlainObject(clientCapabilities)) {
    throw invalidMeta(
      MetaKey.clientCapabilities,
      `Invalid params: _meta["${MetaKey.clientCapabilities}"] is required (an object; {} declares none)`,
    );
  }
  return {
    protocolVersion,
    clientCapabilities: clientCapabilities as JsonObject,
    clientInfo: readClientInfo(meta[MetaKey.clientInfo]),
    logLevel: readLogLevel(meta[MetaKey.logLevel]),
    progressToken: readProgressToken(meta.progressToken),
  };
}

/** Throws -32022 with the supported versions unless the request's version is one of them. */
export function assertSupportedVersion(
  requested: string,
  accepted: ReadonlySet<string>,
  advertised: readonly string[],
): void {
  if (accepted.has(requested)) return;
  throw new McpError(
    ErrorCode.UnsupportedProtocolVersion,
    `Unsupported protocol version: ${requested}`,
    {
      supported: advertised,
      requested,
    },
  );
}

function readClientInfo(value: unknown): { name: string; version: string } | undefined {
  if (value === undefined) return undefined;
  if (isPlainObject(value) && typeof value.name === 'string' && typeof value.version === 'string') {
    return value as { name: string; version: string };
  }
  throw invalidMeta(
    MetaKey.clientInfo,
    `Invalid params: _meta["${MetaKey.clientInfo}"] needs a name and a version`,
  );
}

function readLogLevel(value: unknown): LogLevel | undefined {
  if (value === undefined) return undefined;
  if (isLogLevel(value)) return value;
  throw invalidMeta(MetaKey.logLevel, `Invalid params: unknown log level ${JSON.stringify(value)}`);
}

function readProgressToken(value: unknown): RequestId | undefined {
  if (value === undefined) return undefined;
  if (isValidId(value)) return value;
  throw invalidMeta(
    'progressToken',
    'Invalid params: _meta.progressToken must be a string or an integer',
  );
}

function invalidMeta(key: string, message: string): McpError {
  return new McpError(ErrorCode.InvalidParams, message, { invalidMeta: key });
}
