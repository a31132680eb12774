import { ErrorCode, McpError, RondoError } from '@rondo/protocol';
import { EventsErrorCode, type DeliveryMode } from './wire.js';

/**
 * The package's errors in one place: the wire errors a client sees (each the code and `data` the
 * spec names) and the local errors an emitter or a definition meets.
 */

/** An `events/poll` or `events/stream` named an event type the server has not (or not for this caller). */
export function unknownEventType(name: string): McpError {
  return new McpError(EventsErrorCode.NotFound, `NotFound: unknown event type "${name}"`, {
    kind: 'event',
    name,
  });
}

/** The subscription's arguments do not fit the event type's `inputSchema`. */
export function invalidArguments(name: string, message: string): McpError {
  return new McpError(
    ErrorCode.InvalidParams,
    `InvalidParams: the arguments do not match the inputSchema of "${name}": ${message}`,
    { name, field: 'arguments' },
  );
}

/**
 * The cursor was not issued by this server, was altered, has expired, or belongs to another event
 * type, other arguments or another principal.
 */
export function invalidCursor(name: string): McpError {
  return new McpError(
    ErrorCode.InvalidParams,
    `InvalidParams: the cursor is not a cursor of "${name}" with these arguments for this caller`,
    { name, field: 'cursor' },
  );
}

/** The event type does not offer the delivery mode asked for. */
export function unsupportedMode(name: string, mode: DeliveryMode): McpError {
  return new McpError(
    EventsErrorCode.Unsupported,
    `Unsupported: the event type "${name}" does not offer ${mode} delivery`,
    { name, delivery: mode },
  );
}

/** A client holds as many open `events/stream` requests as it may. */
export function tooManyStreams(max: number): McpError {
  return new McpError(
    EventsErrorCode.ResourceExhausted,
    `ResourceExhausted: at most ${max} open events/stream requests per client`,
    { limit: 'maxStreamsPerClient', max },
  );
}

/** A webhook subscription needs an authenticated principal to own it. */
export function unauthenticated(name: string): McpError {
  return new McpError(
    EventsErrorCode.Forbidden,
    `Forbidden: a webhook subscription to "${name}" needs an authenticated caller`,
    { name, reason: 'unauthenticated' },
  );
}

/** The webhook callback or secret of an `events/subscribe` is refused. */
export function invalidDelivery(name: string, field: 'url' | 'secret', reason: string): McpError {
  return new McpError(
    ErrorCode.InvalidParams,
    `InvalidParams: the delivery ${field} of the subscription to "${name}" is refused: ${reason}`,
    { name, field: `delivery.${field}`, reason },
  );
}

/** A principal holds as many webhook subscriptions as it may. */
export function tooManySubscriptions(max: number): McpError {
  return new McpError(
    EventsErrorCode.ResourceExhausted,
    `ResourceExhausted: at most ${max} webhook subscriptions per principal`,
    { limit: 'maxSubscriptionsPerPrincipal', max },
  );
}

/**
 * The extension's wire errors, for a server that relays the extension (a gateway) to refuse as the
 * extension's own server does: the same codes, messages and `data`.
 */
export const eventsErrors = {
  unknownEventType,
  invalidArguments,
  invalidCursor,
  unsupportedMode,
  tooManyStreams,
  unauthenticated,
  invalidDelivery,
  tooManySubscriptions,
} as const;

/** `emit` was given data that does not fit the event type's payload schema. */
export class EventPayloadError extends RondoError {
  override readonly code: string = 'events.invalid-payload';
  override readonly name = 'EventPayloadError';
  constructor(
    readonly eventType: string,
    detail: string,
  ) {
    super(`the data emitted for "${eventType}" does not match its payload schema: ${detail}`);
  }
}

/** `emit` named an event type that was never declared with `event(...)`. */
export class UnknownEventTypeError extends RondoError {
  override readonly code: string = 'events.unknown-type';
  override readonly name = 'UnknownEventTypeError';
  constructor(readonly eventType: string) {
    super(`no event type "${eventType}" was declared (events.event(name, ...))`);
  }
}
