import { z } from 'zod';
import { LooseObjectSchema } from './common.js';
import { RequestMetaObjectSchema } from './modern.js';

/**
 * The Tasks extension (`io.modelcontextprotocol/tasks`) on the modern wire: the params of
 * `tasks/get`, `tasks/update` and `tasks/cancel`, and the shape of a task as `tasks/get` and
 * `notifications/tasks` carry it.
 */

/** The extension's identifier, as client and server capabilities name it under `extensions`. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** The statuses of a task; the last three are terminal. */
export const TASK_STATUSES = [
  'working',
  'input_required',
  'completed',
  'failed',
  'cancelled',
] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

/** `tasks/get` and `tasks/cancel`: the task named by its id. */
export const TaskRequestParamsSchema = z
  .object({ _meta: RequestMetaObjectSchema, taskId: z.string() })
  .loose();
export type TaskRequestParams = z.infer<typeof TaskRequestParamsSchema>;

/**
 * `tasks/update`: answers to outstanding input requests, by key. The values are checked against
 * the requests they answer (an unknown key is ignored, whatever it holds), so here they are any
 * JSON object.
 */
export const UpdateTaskRequestParamsSchema = z
  .object({
    _meta: RequestMetaObjectSchema,
    taskId: z.string(),
    inputResponses: z.record(z.string(), LooseObjectSchema),
  })
  .loose();
export type UpdateTaskRequestParams = z.infer<typeof UpdateTaskRequestParamsSchema>;

/** A task as `tasks/get` answers it and `notifications/tasks` carries it (the detailed task). */
export const DetailedTaskSchema = z
  .object({
    taskId: z.string(),
    status: z.enum(TASK_STATUSES),
    statusMessage: z.string().optional(),
    createdAt: z.string(),
    lastUpdatedAt: z.string(),
    ttlMs: z.number().int().positive().nullable(),
    pollIntervalMs: z.number().int().positive().optional(),
    inputRequests: LooseObjectSchema.optional(),
    result: LooseObjectSchema.optional(),
    error: LooseObjectSchema.optional(),
  })
  .loose();
export type DetailedTask = z.infer<typeof DetailedTaskSchema>;
