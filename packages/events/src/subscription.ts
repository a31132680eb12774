import type { JsonObject } from '@rondo/protocol';
import { demandScopes, type ExtensionCall } from '@rondo/core';
import type { CursorBinding, CursorCodec } from './cursors.js';
import { invalidArguments, unknownEventType, unsupportedMode } from './errors.js';
import type { EventType } from './eventType.js';
import { matchesSubscription } from './matching.js';
import type { LoggedOccurrence, LogPosition, OccurrenceLog } from './occurrenceLog.js';
import type { DeliveryMode, SubscriptionRequest } from './wire.js';

/** A subscription a request named, checked: its type, its arguments, what its cursors bind. */
export class Subscription {
  readonly binding: CursorBinding;

  private constructor(
    readonly type: EventType,
    readonly args: Record<string, unknown>,
    call: ExtensionCall,
  ) {
    this.binding = { name: type.name, arguments: args, principal: call.principal };
  }

  /**
   * Checks a request's subscription in the spec's order: an unknown type (or one the caller may
   * not see) is NotFound, missing scopes are `insufficient_scope`, a mode the type does not offer
   * is Unsupported, arguments that do not fit its `inputSchema` are InvalidParams.
   */
  static async check(
    types: ReadonlyMap<string, EventType>,
    request: SubscriptionRequest,
    call: ExtensionCall,
    mode: DeliveryMode,
  ): Promise<Subscription> {
    const type = types.get(request.name);
    if (type === undefined || !type.visibleTo(call.principal)) throw unknownEventType(request.name);
    demandScopes(type.scopes, call.principal, `event type "${type.name}"`);
    if (!type.modes.includes(mode)) throw unsupportedMode(type.name, mode);
    const checked = await type.arguments(request.arguments ?? {});
    if (!checked.ok) throw invalidArguments(type.name, checked.message);
    return new Subscription(type, checked.value, call);
  }

  /** True when an occurrence of the type is for this subscription. */
  wants(occurrence: LoggedOccurrence): boolean {
    return matchesSubscription(occurrence.match, this.args);
  }

  /** Where the subscription starts: the cursor's position, or now without one. */
  async start(
    cursor: string | null | undefined,
    log: OccurrenceLog,
    codec: CursorCodec,
  ): Promise<LogPosition> {
    if (cursor === undefined || cursor === null) return log.head(this.type.name);
    return codec.open(cursor, this.binding);
  }

  /** One occurrence on the wire, with the cursor that resumes after it. */
  async wire(occurrence: LoggedOccurrence, codec: CursorCodec, epoch: string): Promise<JsonObject> {
    return {
      eventId: occurrence.eventId,
      name: this.type.name,
      timestamp: new Date(occurrence.at).toISOString(),
      data: occurrence.data,
      cursor: await codec.seal({ epoch, seq: occurrence.seq }, this.binding),
    };
  }
}
