import {
  formElicitation,
  inputRequest,
  roots,
  sampling,
  text,
  type InputRequest,
  type InputResponseValue,
  type JsonObject,
} from '@rondo/protocol';

/**
 * The input requests the round-hook tools and prompt ask with, and small readers of the answers.
 * A hook asks again whenever an answer it needs is missing, so a retry without it (or a legacy client
 * that dropped one) gets a new `input_required` result instead of an error.
 */

const stringForm = (field: string): JsonObject => ({
  type: 'object',
  properties: { [field]: { type: 'string' } },
  required: [field],
});

/** `user_name`: the name form of the basic elicitation scenario. */
export const askUserName = (): InputRequest =>
  inputRequest('user_name', formElicitation('What is your name?', stringForm('name')));

/** `confirm`: a yes/no form. */
export const askConfirm = (): InputRequest =>
  inputRequest(
    'confirm',
    formElicitation('Please confirm', {
      type: 'object',
      properties: { ok: { type: 'boolean' } },
      required: ['ok'],
    }),
  );

/** A one-string form under `key`. */
export const askString = (key: string, message: string, field: string): InputRequest =>
  inputRequest(key, formElicitation(message, stringForm(field)));

/** A sampling request with one user text message. */
export const askModel = (key: string, prompt: string, maxTokens: number): InputRequest =>
  inputRequest(key, sampling([{ role: 'user', content: text(prompt) }], { maxTokens }));

/** A roots request. */
export const askRoots = (key: string): InputRequest => inputRequest(key, roots());

/** The accepted form field `field`, or undefined when the form was not accepted. */
export function acceptedField(answer: InputResponseValue | undefined, field: string): unknown {
  return answer?.kind === 'accept' ? answer.content[field] : undefined;
}

/** The text a model answered with, or a JSON rendering of any other content. */
export function sampledText(answer: InputResponseValue | undefined): string | undefined {
  if (answer?.kind !== 'sampling_result') return undefined;
  const content = answer.content as { type?: string; text?: string } | null;
  return content?.type === 'text' && typeof content.text === 'string'
    ? content.text
    : JSON.stringify(answer.content);
}

/** The roots a client gave, or undefined. */
export function givenRoots(answer: InputResponseValue | undefined): { uri: string }[] | undefined {
  return answer?.kind === 'roots_result' ? answer.roots : undefined;
}

/** True when the answer is a decline or a cancel: the user said no, and the hook should stop asking. */
export function refused(answer: InputResponseValue | undefined): boolean {
  return answer?.kind === 'decline' || answer?.kind === 'cancel';
}
