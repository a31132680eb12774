import {
  MetaKey,
  type ClientCapabilities,
  type Era,
  type Implementation,
  type LoggingLevel,
  type MethodTable,
} from '@rondo/protocol';
import { describeZodError, legacyResults, modernResults } from '@rondo/protocol/internal';
import { ProtocolViolationError } from './errors.js';
import { legacyResultChecks, modernResultChecks, type QuickResultCheck } from './quickResults.js';

/**
 * What differs between the eras for an ordinary request: how its params are dressed (the modern
 * era repeats the revision, capabilities and client identity in every request's `_meta`) and which
 * schema its result must fit.
 */
export interface EraWire {
  readonly era: Era;
  readonly protocolVersion: string;
  /** The params to send for `method`. */
  params(params: Record<string, unknown> | undefined): Record<string, unknown> | undefined;
  /** Checks a result against its method's schema; throws {@link ProtocolViolationError} when it does not fit. */
  check(method: string, result: Record<string, unknown>): Record<string, unknown>;
}

/** What the modern `_meta` carries besides the revision. */
export interface ModernIdentity {
  readonly capabilities: ClientCapabilities;
  readonly clientInfo: Implementation;
  /** The log level asked for with `setLogLevel`, repeated in every request. */
  logLevel?: LoggingLevel | undefined;
}

/** The legacy era: params go as given; the session made at `initialize` carries the rest. */
export function legacyWire(protocolVersion: string): EraWire {
  return {
    era: 'legacy',
    protocolVersion,
    params: (params) => params,
    check: (method, result) => checkResult(legacyResults, legacyResultChecks, method, result),
  };
}

/** The modern era: every request carries the revision and the client's identity in `_meta`. */
export function modernWire(protocolVersion: string, identity: ModernIdentity): EraWire {
  return {
    era: 'modern',
    protocolVersion,
    params: (params) => ({ ...params, _meta: modernMeta(protocolVersion, identity, params) }),
    check: (method, result) =>
      // A result without `resultType` is a finished one (servers from before MRTR leave it out).
      checkResult(
        modernResults,
        modernResultChecks,
        method,
        'resultType' in result ? result : { ...result, resultType: 'complete' },
      ),
  };
}

/** The `_meta` of a modern request: the caller's own members, then the reserved ones. */
export function modernMeta(
  protocolVersion: string,
  identity: ModernIdentity,
  params?: Record<string, unknown>,
): Record<string, unknown> {
  const meta: Record<string, unknown> = {
    ...(params?._meta as Record<string, unknown> | undefined),
    [MetaKey.protocolVersion]: protocolVersion,
    [MetaKey.clientCapabilities]: identity.capabilities,
    [MetaKey.clientInfo]: identity.clientInfo,
  };
  if (identity.logLevel !== undefined) meta[MetaKey.logLevel] = identity.logLevel;
  return meta;
}

/**
 * Checks `result` against the method's schema and returns it unchanged on success: the server's
 * own members (an input schema's every keyword, say) reach the caller as sent. A result the quick
 * check recognises skips the schema (the check accepts only what the schema accepts).
 */
function checkResult(
  table: MethodTable,
  quick: Readonly<Record<string, QuickResultCheck>>,
  method: string,
  result: Record<string, unknown>,
): Record<string, unknown> {
  if (quick[method]?.(result) === true) return result;
  const schema = table[method];
  if (schema === undefined) return result;
  const parsed = schema.safeParse(result);
  if (parsed.success) return result;
  throw new ProtocolViolationError(
    `the server's ${method} result does not fit the protocol: ${describeZodError(parsed.error, 'result')}`,
  );
}
