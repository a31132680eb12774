import type { JsonObject } from '@rondo/protocol';
import {
  ConfigurationError,
  type ArgumentValidator,
  type Principal,
  type SchemaInput,
  type Visibility,
} from '@rondo/core';
import { compileArgumentValidator, toJsonSchema } from '@rondo/core/internal';
import type { ReplayBounds } from './occurrenceLog.js';
import { DEFAULT_DELIVERY_MODES, DELIVERY_MODES, type DeliveryMode } from './wire.js';

/** How one event type is declared (`events.event(name, definition)`). */
export interface EventDefinition {
  /** What the event means and when it fires (shown to clients and their models). */
  readonly description: string;
  /** A human-readable name. */
  readonly title?: string;
  /**
   * The subscription arguments, as a tool's input is declared: a zod schema, another Standard
   * Schema exporting JSON Schema, or a JSON Schema object. Default: an object with no properties.
   */
  readonly input?: SchemaInput;
  /** Each occurrence's `data`, declared the same way; `emit` checks the data against it. */
  readonly payload: SchemaInput;
  /** The delivery modes offered; default `['poll', 'push']` (`'webhook'` is offered by naming it). */
  readonly modes?: readonly DeliveryMode[];
  /** How much of the event type's past a cursor can resume from (see {@link ReplayBounds}). */
  readonly replay?: Partial<ReplayBounds>;
  /** Scopes a caller's token must hold to poll or stream it (refused with `insufficient_scope`). */
  readonly scopes?: readonly string[];
  /** Who may see the event type at all; to anyone else it is unknown. */
  readonly visible?: Visibility;
  /** The `nextPollMs` a poll answers when it has nothing more (default: the extension's). */
  readonly nextPollMs?: number;
}

/** The replay buffer of an event type unless its definition says otherwise. */
export const DEFAULT_REPLAY: ReplayBounds = { count: 1000, bytes: 1024 * 1024, ageMs: 60 * 60_000 };

/** The event type names SEP-3415 lets a server use (as tool names: letters, digits, `_ - . /`). */
const EVENT_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.\-/]{0,127}$/;

/** One declared event type, checked and compiled once. */
export class EventType {
  readonly modes: readonly DeliveryMode[];
  readonly replay: ReplayBounds;
  private readonly inputSchema: JsonObject;
  private readonly payloadSchema: JsonObject;
  private readonly checkArguments: ArgumentValidator;
  private readonly checkPayload: ArgumentValidator;

  constructor(
    readonly name: string,
    private readonly definition: EventDefinition,
  ) {
    if (!EVENT_NAME.test(name))
      throw new ConfigurationError(
        `event type "${name}": a name is 1 to 128 letters, digits, "_", "-", "." or "/"`,
      );
    const owner = `event type "${name}"`;
    const input = definition.input ?? { type: 'object', properties: {} };
    this.inputSchema = toJsonSchema(input, `${owner} input`);
    this.payloadSchema = toJsonSchema(definition.payload, `${owner} payload`);
    this.checkArguments = compileArgumentValidator(input, `${owner} input`);
    this.checkPayload = compileArgumentValidator(definition.payload, `${owner} payload`);
    this.modes = checkModes(owner, definition.modes ?? DEFAULT_DELIVERY_MODES);
    this.replay = checkReplay(owner, { ...DEFAULT_REPLAY, ...definition.replay });
  }

  /** The scopes a caller needs to subscribe, if any. */
  get scopes(): readonly string[] | undefined {
    return this.definition.scopes;
  }

  /** The `nextPollMs` of this type, if its definition sets one. */
  get nextPollMs(): number | undefined {
    return this.definition.nextPollMs;
  }

  /** True when `principal` may see the event type. */
  visibleTo(principal: Principal | undefined): boolean {
    return this.definition.visible?.(principal) ?? true;
  }

  /** The descriptor `events/list` answers. */
  descriptor(): JsonObject {
    const descriptor: JsonObject = { name: this.name };
    if (this.definition.title !== undefined) descriptor.title = this.definition.title;
    descriptor.description = this.definition.description;
    descriptor.delivery = [...this.modes];
    descriptor.inputSchema = this.inputSchema;
    descriptor.payloadSchema = this.payloadSchema;
    return descriptor;
  }

  /** Checks subscription arguments: the (defaulted) value, or a message naming the field. */
  async arguments(
    args: Record<string, unknown>,
  ): Promise<{ ok: true; value: Record<string, unknown> } | { ok: false; message: string }> {
    return this.checkArguments(args);
  }

  /** Checks an occurrence's data: the value, or a message naming the field. */
  async payload(
    data: Record<string, unknown>,
  ): Promise<{ ok: true; value: Record<string, unknown> } | { ok: false; message: string }> {
    return this.checkPayload(data);
  }
}

function checkModes(owner: string, modes: readonly DeliveryMode[]): readonly DeliveryMode[] {
  const known = DELIVERY_MODES.filter((mode) => modes.includes(mode));
  if (known.length === 0 || known.length !== new Set(modes).size)
    throw new ConfigurationError(
      `${owner}: modes is a non-empty list of ${DELIVERY_MODES.map((mode) => `"${mode}"`).join(', ')}`,
    );
  return known;
}

function checkReplay(owner: string, bounds: ReplayBounds): ReplayBounds {
  for (const [key, value] of Object.entries(bounds))
    if (!Number.isInteger(value) || value < 1)
      throw new ConfigurationError(`${owner}: replay.${key} must be a positive integer`);
  return bounds;
}
