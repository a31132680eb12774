import {
  events,
  type DeliveryMode,
  type EventDefinition,
  type EventsOptions,
  type ReplayBounds,
  type ServerEvents,
} from '@rondo/events';
import type { JsonObject } from '@rondo/protocol';
import { withoutUndefined } from './descriptionLists.js';
import type { EmissionListener } from './emissionRelay.js';

/** An event type a Prolog provider declares with `events/1` (`event(Name, Properties)`). */
export interface PrologEventType {
  readonly name: string;
  /** `title(Text)`. */
  readonly title?: string | undefined;
  /** `description(Text)`. */
  readonly description: string;
  /** `input(Schema)`: the subscription arguments' JSON Schema. */
  readonly inputSchema?: JsonObject | undefined;
  /** `payload(Schema)`: each occurrence's data's JSON Schema. */
  readonly payloadSchema?: JsonObject | undefined;
  /** `modes(Modes)`. */
  readonly modes?: readonly DeliveryMode[] | undefined;
  /** `replay(Bounds)`: `count(N)`, `bytes(N)`, `age_ms(N)`. */
  readonly replay?: { readonly [K in keyof ReplayBounds]?: number | undefined } | undefined;
}

/** What {@link prologEvents} needs of a provider: its event types and its workers' occurrences. */
export interface PrologEventSource {
  readonly events: readonly PrologEventType[];
  onEmit(listener: EmissionListener): () => void;
}

/** The payload schema of a type that declares none: any object. */
const ANY_OBJECT: JsonObject = { type: 'object' };

/**
 * The Events extension over what a Prolog provider's `events/1` declares, for `server.use(...)`:
 * each event type with its schemas, modes and replay bounds, and every occurrence a worker raises
 * with `mcp_emit/2,3` emitted through it (one that does not fit its payload schema is dropped
 * with a warning in the bridge's log). `options` are the extension's own (its occurrence log,
 * cursor keys, webhook store and bounds). The Logtalk host serves a provider's events with it.
 */
export function prologEvents(
  provider: PrologEventSource,
  options: EventsOptions = {},
): ServerEvents {
  const served = events(options);
  for (const type of provider.events) served.event(type.name, definitionOf(type));
  provider.onEmit(({ event, data, match, eventId }) =>
    served.emit(event, data, {
      ...(match !== undefined ? { match } : {}),
      ...(eventId !== undefined ? { eventId } : {}),
    }),
  );
  return served;
}

function definitionOf(type: PrologEventType): EventDefinition {
  return {
    description: type.description,
    payload: type.payloadSchema ?? ANY_OBJECT,
    ...(type.title !== undefined ? { title: type.title } : {}),
    ...(type.inputSchema !== undefined ? { input: type.inputSchema } : {}),
    ...(type.modes !== undefined ? { modes: type.modes } : {}),
    ...(type.replay !== undefined
      ? { replay: withoutUndefined<Partial<ReplayBounds>>(type.replay) }
      : {}),
  };
}
