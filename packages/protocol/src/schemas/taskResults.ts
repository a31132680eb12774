import { z } from 'zod';
import { ModernToolRoundResultSchema, ResultMetaObjectSchema } from './modernResults.js';
import { DetailedTaskSchema } from './tasks.js';

/** The results of the Tasks extension on the modern wire. */

/**
 * A `tools/call` answered with a task handle: flat (the task's members beside `resultType`), with
 * no result, error or input requests, which only `tasks/get` carries.
 */
export const CreateTaskResultSchema = DetailedTaskSchema.omit({
  inputRequests: true,
  result: true,
  error: true,
})
  .extend({ _meta: ResultMetaObjectSchema.optional(), resultType: z.literal('task') })
  .loose();
export type CreateTaskResult = z.infer<typeof CreateTaskResultSchema>;

/** What `tools/call` answers when the client declared the Tasks extension. */
export const ModernToolOrTaskResultSchema = z.union([
  ModernToolRoundResultSchema,
  CreateTaskResultSchema,
]);

/** `tasks/get`: the detailed task, a complete result. */
export const GetTaskResultSchema = DetailedTaskSchema.extend({
  _meta: ResultMetaObjectSchema.optional(),
  resultType: z.literal('complete'),
}).loose();
export type GetTaskResult = z.infer<typeof GetTaskResultSchema>;

/** `tasks/update` and `tasks/cancel`: an empty acknowledgement. */
export const TaskAckResultSchema = z
  .object({ _meta: ResultMetaObjectSchema.optional(), resultType: z.literal('complete') })
  .strict();
