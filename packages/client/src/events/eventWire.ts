import { z } from 'zod';
import { describeZodError } from '@rondo/protocol';
import { ProtocolViolationError } from '../errors.js';
import type { Page } from '../types.js';

/** The Events extension's identifier, as servers declare it under `capabilities.extensions`. */
export const EVENTS_EXTENSION = 'io.modelcontextprotocol/events';

/** The `_meta` key a push notification names its `events/stream` request with. */
export const SUBSCRIPTION_ID_META = 'io.modelcontextprotocol/subscriptionId';

const DescriptorSchema = z
  .object({
    name: z.string().min(1),
    description: z.string(),
    delivery: z.array(z.string()).min(1),
    inputSchema: z.record(z.string(), z.unknown()),
    payloadSchema: z.record(z.string(), z.unknown()),
  })
  .loose();

const OccurrenceSchema = z
  .object({
    eventId: z.string().min(1),
    name: z.string().min(1),
    timestamp: z.string(),
    data: z.record(z.string(), z.unknown()),
    cursor: z.string().nullable().optional(),
  })
  .loose();

const PollResultSchema = z
  .object({
    events: z.array(OccurrenceSchema),
    cursor: z.string().nullable(),
    truncated: z.boolean(),
    hasMore: z.boolean(),
    nextPollMs: z.number().nonnegative(),
  })
  .loose();

/** An event type a server offers, as `events/list` describes it. */
export interface EventTypeDescriptor {
  readonly name: string;
  readonly title?: string;
  readonly description: string;
  /** The delivery modes it offers (`poll`, `push`, `webhook`). */
  readonly delivery: readonly string[];
  /** JSON Schema of the subscription arguments. */
  readonly inputSchema: Record<string, unknown>;
  /** JSON Schema of each occurrence's `data`. */
  readonly payloadSchema: Record<string, unknown>;
  readonly [member: string]: unknown;
}

/** One occurrence of an event type. */
export interface EventOccurrence {
  /** Its id: deduplicate on it. */
  readonly eventId: string;
  readonly name: string;
  /** When it happened (ISO 8601). */
  readonly timestamp: string;
  /** The payload, untrusted like a tool result. */
  readonly data: Record<string, unknown>;
  /** Resumes after this occurrence; `null` or absent when the type has no replay. */
  readonly cursor?: string | null;
}

/** One page of `events/list`. */
export interface EventTypesPage extends Page {
  readonly events: EventTypeDescriptor[];
}

/** What `events/poll` answers. */
export interface PollResult {
  readonly events: EventOccurrence[];
  /** Where the next poll resumes (keep it even when `events` is empty). */
  readonly cursor: string | null;
  /** True when occurrences after the cursor polled from were lost before this poll. */
  readonly truncated: boolean;
  /** True when more occurrences wait: poll again now. */
  readonly hasMore: boolean;
  /** How long to wait before the next poll (ms). */
  readonly nextPollMs: number;
}

/** A subscription as a request names it. */
export interface EventSubscription {
  /** The event type. */
  readonly name: string;
  /** Arguments fitting the type's `inputSchema`; default `{}`. */
  readonly arguments?: Record<string, unknown>;
  /** Where to start: a cursor from an earlier poll or stream; absent or `null` for now. */
  readonly cursor?: string | null;
  /** Replay nothing older than this (ms). */
  readonly maxAgeMs?: number;
}

/** Checks one value against `schema`, as `method`'s result; a mismatch is a protocol violation. */
function checked<T>(schema: z.ZodType, value: unknown, method: string, what: string): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return value as T;
  throw new ProtocolViolationError(
    `${method}: the ${what} does not fit the Events extension: ${describeZodError(parsed.error, what)}`,
  );
}

/** An `events/list` descriptor, checked; `undefined` with the reason when it does not fit. */
export function checkDescriptor(
  value: unknown,
): { ok: true; descriptor: EventTypeDescriptor } | { ok: false; reason: string } {
  const parsed = DescriptorSchema.safeParse(value);
  return parsed.success
    ? { ok: true, descriptor: value as EventTypeDescriptor }
    : { ok: false, reason: describeZodError(parsed.error, 'descriptor') };
}

/** An `events/poll` result, checked. */
export function checkPollResult(result: Record<string, unknown>): PollResult {
  return checked<PollResult>(PollResultSchema, result, 'events/poll', 'result');
}

/** A pushed occurrence (`notifications/events/event` params), checked. */
export function checkOccurrence(params: unknown): EventOccurrence {
  return checked<EventOccurrence>(OccurrenceSchema, params, 'notifications/events/event', 'params');
}
