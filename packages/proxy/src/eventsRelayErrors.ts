import { EventsErrorCode } from '@rondo/events';
import { ErrorCode, McpError, isPlainObject } from '@rondo/protocol';

/**
 * The wire errors of the Events extension as the gateway answers them itself (before or instead of
 * asking an upstream), with the codes and `data` the extension's own server gives for the same case,
 * so a caller cannot tell a gateway's refusal from an upstream's. Those the extension's own server
 * answers too are `eventsErrors` of `@rondo/events`.
 */

/** The gateway runs with webhooks off (`relayEvents({ webhooks: false })`, `--webhooks off`). */
export function webhookNotRelayed(name: string): McpError {
  return new McpError(
    EventsErrorCode.Unsupported,
    `Unsupported: the gateway does not relay webhook subscriptions ("${name}"); ` +
      'poll or stream it through the gateway, or subscribe at the upstream itself',
    { name, delivery: 'webhook' },
  );
}

/** The gateway holds as many webhook subscriptions as it may, over every caller. */
export function tooManyRelayedWebhooks(max: number): McpError {
  return new McpError(
    EventsErrorCode.ResourceExhausted,
    `ResourceExhausted: the gateway holds at most ${max} webhook subscriptions`,
    { limit: 'maxSubscriptions', max },
  );
}

/** A caller holds as many relayed `events/stream` requests as it may. */
export function tooManyRelayedStreams(max: number): McpError {
  return new McpError(
    EventsErrorCode.ResourceExhausted,
    `ResourceExhausted: at most ${max} open events/stream requests per client through the gateway`,
    { limit: 'maxStreamsPerClient', max },
  );
}

/** An upstream answered with a cursor past the gateway's bound: it is not wrapped or kept. */
export function oversizedUpstreamCursor(upstream: string, max: number): McpError {
  return new McpError(
    ErrorCode.InternalError,
    `Upstream "${upstream}" sent an event cursor longer than ${max} characters (maxUpstreamCursorLength)`,
    { upstream },
  );
}

/** An upstream's `events/poll` answered more occurrences than it was asked for. */
export function tooLongAnswer(upstream: string, max: number): McpError {
  return new McpError(
    ErrorCode.InternalError,
    `Upstream "${upstream}" answered events/poll with more than the ${max} events asked for`,
    { upstream },
  );
}

/**
 * An upstream's refusal as the caller sees it: an `McpError` naming the upstream's event type
 * (`data.name`, and the name quoted in its message) names the type the caller asked for.
 */
export function renamedRefusal(error: McpError, upstreamName: string, exposed: string): McpError {
  if (upstreamName === exposed || !isPlainObject(error.data) || error.data.name !== upstreamName)
    return error;
  return new McpError(error.code, error.message.split(`"${upstreamName}"`).join(`"${exposed}"`), {
    ...error.data,
    name: exposed,
  });
}
