import { z } from 'zod';
import { describeZodError } from '@rondo/protocol/internal';
import { ProtocolViolationError } from '../errors.js';

/** A webhook subscription as `events/subscribe` asks for it (the same request again refreshes it). */
export interface WebhookSubscribeRequest {
  /** The event type. */
  readonly name: string;
  /** Arguments fitting the type's `inputSchema`; default `{}`. */
  readonly arguments?: Record<string, unknown>;
  /** The https callback deliveries are POSTed to. */
  readonly url: string;
  /** The Standard Webhooks secret (`whsec_…`, see `generateWebhookSecret`) deliveries are signed with. */
  readonly secret: string;
  /** The lifetime asked for (ms); the server may give less. */
  readonly ttlMs?: number;
  /** The last cursor held, checked by the server. */
  readonly cursor?: string | null;
}

/** A webhook subscription's key, as `events/unsubscribe` names it. */
export interface WebhookUnsubscribeRequest {
  readonly name: string;
  readonly arguments?: Record<string, unknown>;
  readonly url: string;
}

/** What `events/subscribe` answers. */
export interface WebhookSubscription {
  /** The subscription's id: each delivery's `X-MCP-Subscription-Id`. */
  readonly id: string;
  /** Subscribe again (a refresh) before this instant (ISO 8601), or deliveries stop. */
  readonly refreshBefore: string;
  /** The cursor of now, for polling from if deliveries were missed. */
  readonly cursor: string | null;
  readonly [member: string]: unknown;
}

const SubscribeResultSchema = z
  .object({ id: z.string().min(1), refreshBefore: z.string(), cursor: z.string().nullable() })
  .loose();

/** An `events/subscribe` result, checked. */
export function checkSubscribeResult(result: Record<string, unknown>): WebhookSubscription {
  const parsed = SubscribeResultSchema.safeParse(result);
  if (parsed.success) return result as WebhookSubscription;
  throw new ProtocolViolationError(
    `events/subscribe: the result does not fit the Events extension: ${describeZodError(parsed.error, 'result')}`,
  );
}
