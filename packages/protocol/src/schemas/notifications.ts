import { z } from 'zod';
import { LoggingLevelSchema, LooseObjectSchema, RequestIdSchema } from './common.js';
import { MetaKey } from '../revisions.js';

/**
 * Notification params a server sends (logging, resource updates, list changes, subscriptions) and
 * the modern era's notification `_meta`.
 */

/** The `_meta` of a modern notification: on a `subscriptions/listen` stream, the subscription id. */
export const NotificationMetaObjectSchema = z
  .object({ [MetaKey.subscriptionId]: RequestIdSchema.optional() })
  .loose();
export type NotificationMetaObject = z.infer<typeof NotificationMetaObjectSchema>;

/** Params of `notifications/tools/list_changed` and friends in the modern era. */
export const ModernNotificationParamsSchema = z
  .object({ _meta: NotificationMetaObjectSchema.optional() })
  .loose();
export type ModernNotificationParams = z.infer<typeof ModernNotificationParamsSchema>;

/** `notifications/message`: a log entry. `data` is any JSON value and is required. */
export const LoggingMessageNotificationParamsSchema = z
  .object({
    _meta: LooseObjectSchema.optional(),
    level: LoggingLevelSchema,
    logger: z.string().optional(),
    data: z.unknown(),
  })
  .loose();
export type LoggingMessageNotificationParams = z.infer<
  typeof LoggingMessageNotificationParamsSchema
>;

/** `notifications/resources/updated`. */
export const ResourceUpdatedNotificationParamsSchema = z
  .object({ _meta: LooseObjectSchema.optional(), uri: z.string() })
  .loose();
export type ResourceUpdatedNotificationParams = z.infer<
  typeof ResourceUpdatedNotificationParamsSchema
>;

/** `notifications/elicitation/complete` (2025-11-25): a URL-mode elicitation finished. */
export const ElicitationCompleteNotificationParamsSchema = z
  .object({ _meta: LooseObjectSchema.optional(), elicitationId: z.string() })
  .loose();
export type ElicitationCompleteNotificationParams = z.infer<
  typeof ElicitationCompleteNotificationParamsSchema
>;

/** Which notifications a `subscriptions/listen` stream carries. */
export const SubscriptionFilterSchema = z
  .object({
    toolsListChanged: z.boolean().optional(),
    promptsListChanged: z.boolean().optional(),
    resourcesListChanged: z.boolean().optional(),
    resourceSubscriptions: z.array(z.string()).optional(),
    /** The Tasks extension: `notifications/tasks` for these tasks. */
    taskIds: z.array(z.string()).optional(),
  })
  .loose();
export type SubscriptionFilter = z.infer<typeof SubscriptionFilterSchema>;

/** `notifications/subscriptions/acknowledged`: what a listen stream will deliver. */
export const SubscriptionsAcknowledgedNotificationParamsSchema = z
  .object({
    _meta: NotificationMetaObjectSchema.optional(),
    notifications: SubscriptionFilterSchema,
  })
  .loose();
export type SubscriptionsAcknowledgedNotificationParams = z.infer<
  typeof SubscriptionsAcknowledgedNotificationParamsSchema
>;

/** `notifications/cancelled` in the modern era: `requestId` is required. */
export const ModernCancelledNotificationParamsSchema = z
  .object({
    _meta: NotificationMetaObjectSchema.optional(),
    requestId: RequestIdSchema,
    reason: z.string().optional(),
  })
  .loose();
export type ModernCancelledNotificationParams = z.infer<
  typeof ModernCancelledNotificationParamsSchema
>;
