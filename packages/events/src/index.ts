export {
  events,
  ServerEvents,
  DEFAULT_EVENTS_LIMITS,
  type EventsOptions,
  type EmitOptions,
  type WebhookOptions,
  type SharedEventState,
} from './serverEvents.js';
export { DEFAULT_WEBHOOK_LIMITS, type WebhookLimits } from './webhookLimits.js';
export {
  MemoryWebhookStore,
  type WebhookStore,
  type WebhookSubscription,
  type SaveOutcome,
} from './webhookStore.js';
export { DEFAULT_REPLAY, type EventDefinition } from './eventType.js';
export { DEFAULT_CURSOR_TTL_MS } from './cursors.js';
export { MemoryOccurrenceLog } from './memoryOccurrenceLog.js';
export { OccurrencePage } from './occurrencePage.js';
export type {
  OccurrenceLog,
  ReplayBounds,
  NewOccurrence,
  LoggedOccurrence,
  LogPosition,
  ReadOptions,
  LogRead,
} from './occurrenceLog.js';
export type { EventsLimits } from './eventsHost.js';
export { EventPayloadError, UnknownEventTypeError } from './errors.js';
export { CallbackRefusedError, type CallbackRefusal } from './callbackTarget.js';
export {
  postSignedDelivery,
  type SignedDelivery,
  type SignedDeliveryOptions,
  type CallbackVerdict,
} from './signedDelivery.js';
export {
  DeliveryQueue,
  type PendingDelivery,
  type AttemptOutcome,
  type QueueSettings,
} from './deliveryQueue.js';
export { checkWebhookDelivery, webhookSubscriptionId } from './webhookSubscriptions.js';
export { eventsErrors } from './errors.js';
export { SubscribeEventsParams, UnsubscribeEventsParams } from './wire.js';
export {
  EVENTS_EXTENSION,
  SUBSCRIPTION_ID_META,
  DELIVERY_MODES,
  DEFAULT_DELIVERY_MODES,
  SUBSCRIPTION_ID_HEADER,
  MAX_POLL_EVENTS,
  PUSH,
  EventsErrorCode,
  type DeliveryMode,
} from './wire.js';
