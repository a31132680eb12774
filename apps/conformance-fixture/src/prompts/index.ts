import {
  embeddedResource,
  image,
  inputRequired,
  message,
  messages,
  textContent,
} from '@rondo/protocol';
import type { RondoServer } from '@rondo/core';
import { RED_PIXEL_PNG } from '../media.js';
import { acceptedField, askString } from '../tools/rounds.js';

/** The prompts of the conformance surface, including the round-hook one. */
export function addPrompts(server: RondoServer): void {
  server
    .prompt('test_simple_prompt', { description: 'A simple prompt without arguments' }, () =>
      messages([message('user', 'This is a simple prompt for testing.')]),
    )
    .prompt(
      'test_prompt_with_arguments',
      {
        description: 'A prompt with two required arguments',
        arguments: [
          { name: 'arg1', description: 'First test argument', required: true },
          { name: 'arg2', description: 'Second test argument', required: true },
        ],
      },
      ({ arg1, arg2 }) =>
        messages([message('user', `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'`)]),
    )
    .prompt(
      'test_prompt_with_embedded_resource',
      {
        description: 'A prompt that embeds a resource',
        arguments: [
          { name: 'resourceUri', description: 'URI of the resource to embed', required: true },
        ],
      },
      ({ resourceUri = 'test://example-resource' }) =>
        messages([
          message(
            'user',
            embeddedResource(
              textContent(resourceUri, 'text/plain', 'Embedded resource content for testing.'),
            ),
          ),
          message('user', 'Please process the embedded resource above.'),
        ]),
    )
    .prompt('test_prompt_with_image', { description: 'A prompt with an image' }, () =>
      messages([
        message('user', image(RED_PIXEL_PNG, 'image/png')),
        message('user', 'Please analyze the image above.'),
      ]),
    )
    .prompt(
      'test_input_required_result_prompt',
      { description: 'Asks the user for context before building its messages' },
      (_args, ctx) => {
        const context = acceptedField(ctx.inputResponses.user_context, 'context');
        if (typeof context !== 'string') {
          return inputRequired([
            askString('user_context', 'What context should the prompt use?', 'context'),
          ]);
        }
        return messages([message('user', `Use this context: ${context}`)]);
      },
    )
    .completion({ prompt: 'test_prompt_with_arguments' }, 'arg1', (value) =>
      ['testValue1', 'testValue2', 'test-alpha'].filter((option) => option.startsWith(value)),
    )
    .completion({ prompt: 'test_prompt_with_arguments' }, 'arg2', (value) =>
      ['testValue2', 'other'].filter((option) => option.startsWith(value)),
    );
}
