import { spawn } from 'node:child_process';
import { scaled } from '@rondo/test-support/timeFactor';

/** One JSON-RPC message as the guide tests read it. */
export interface Message {
  id?: string | number;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

/** What a program answered while the client drove every round to its end. */
export interface Conversation {
  /** Each request's answer by id: the try lines', the retries'. */
  answers: Map<string | number, Message>;
  /** The requests the client sent, in order, retries included. */
  sent: Message[];
  /** The server-to-client requests (legacy `elicitation/create`) the client answered. */
  asked: Message[];
  /** Retry lines the guide shows that no `input_required` answer called for. */
  unusedRetries: Message[];
  stderr: string;
  code: number | null;
}

/** The value the test client gives for every string a form asks for. */
export const ANSWERED_NAME = 'Ada';

/** An accepted form: every property of the requested schema gets a plausible value. */
export function formAnswer(schema: unknown): Record<string, unknown> {
  const properties = (
    schema as { properties?: Record<string, { type?: string; enum?: unknown[] }> }
  )?.properties;
  const content: Record<string, unknown> = {};
  for (const [key, property] of Object.entries(properties ?? {})) {
    if (property.enum?.length) content[key] = property.enum[0];
    else if (property.type === 'number' || property.type === 'integer') content[key] = 1;
    else if (property.type === 'boolean') content[key] = true;
    else content[key] = ANSWERED_NAME;
  }
  return content;
}

/**
 * Runs a program as an MCP client over stdio would, through every round: the try lines first; a
 * modern `input_required` answer is retried with the matching line of `retries` (its
 * `requestState` filled in from the answer; the inputResponses as the guide shows them), or with
 * accepted forms when the guide shows none; a legacy `elicitation/create` is answered with an
 * accepted form. Input ends once every request has its last answer.
 */
export async function converse(
  command: string,
  args: string[],
  cwd: string,
  tryLines: string[],
  retries: string[],
): Promise<Conversation> {
  const child = spawn(command, args, { cwd, stdio: ['pipe', 'pipe', 'pipe'] });
  const unusedRetries = retries.map((line) => JSON.parse(line) as Message);
  const conversation: Conversation = {
    answers: new Map(),
    sent: [],
    asked: [],
    unusedRetries,
    stderr: '',
    code: null,
  };
  const pending = new Set<string | number>();
  const send = (message: Message | string): void => {
    const parsed = typeof message === 'string' ? (JSON.parse(message) as Message) : message;
    if (parsed.method !== undefined && parsed.id !== undefined) {
      pending.add(parsed.id);
      conversation.sent.push(parsed);
    }
    child.stdin.write(`${JSON.stringify(parsed)}\n`);
  };
  const retry = (request: Message, result: Record<string, unknown>): Message => {
    const name = request.params?.name;
    const index = unusedRetries.findIndex((line) => line.params?.name === name);
    const shown = index >= 0 ? unusedRetries.splice(index, 1)[0] : undefined;
    const inputRequests = (result.inputRequests ?? {}) as Record<
      string,
      { params?: { requestedSchema?: unknown } }
    >;
    const inputResponses =
      shown?.params?.inputResponses ??
      Object.fromEntries(
        Object.entries(inputRequests).map(([key, asked]) => [
          key,
          { action: 'accept', content: formAnswer(asked.params?.requestedSchema) },
        ]),
      );
    return {
      jsonrpc: '2.0',
      id: shown?.id ?? `${String(request.id)}-again`,
      method: request.method,
      params: {
        ...request.params,
        ...shown?.params,
        inputResponses,
        requestState: result.requestState,
      },
    } as Message;
  };
  let rest = '';
  const finished = new Promise<void>((resolve) => {
    const take = (message: Message): void => {
      if (message.method === 'elicitation/create' && message.id !== undefined) {
        conversation.asked.push(message);
        const content = formAnswer(
          (message.params as { requestedSchema?: unknown }).requestedSchema,
        );
        child.stdin.write(
          `${JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { action: 'accept', content } })}\n`,
        );
        return;
      }
      if (message.id === undefined || message.method !== undefined) return;
      conversation.answers.set(message.id, message);
      pending.delete(message.id);
      const request = conversation.sent.find((sent) => sent.id === message.id);
      if (request && message.result?.resultType === 'input_required')
        send(retry(request, message.result));
      if (pending.size === 0) resolve();
    };
    child.stdout.on('data', (chunk: Buffer) => {
      rest += chunk.toString('utf8');
      const lines = rest.split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines.filter((entry) => entry.trim() !== ''))
        take(JSON.parse(line) as Message);
    });
  });
  child.stderr.on('data', (chunk: Buffer) => (conversation.stderr += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  for (const line of tryLines) send(line);
  const deadline = setTimeout(() => child.kill('SIGKILL'), scaled(30_000));
  await Promise.race([finished, exited]);
  child.stdin.end();
  conversation.code = await exited;
  clearTimeout(deadline);
  return conversation;
}

/** The text items of a tool result, joined. */
export function resultText(message: Message | undefined): string {
  const content = (message?.result?.content ?? []) as { text?: string }[];
  return content.map((item) => item.text ?? '').join('');
}
