import type { RondoServer } from '@rondo/core';
import { message, messages } from '@rondo/protocol';

const MOODS = ['calm', 'joyful', 'melancholic', 'mysterious', 'playful'];

/** Registers the prompt `haiku` with a required `topic` and an optional, completable `mood`. */
export function addHaikuPrompt(server: RondoServer): void {
  server
    .prompt(
      'haiku',
      {
        title: 'Write a haiku',
        description: 'Asks the model for a haiku about a topic, in a mood.',
        arguments: [
          { name: 'topic', description: 'What the haiku is about', required: true },
          { name: 'mood', description: `One of: ${MOODS.join(', ')}`, required: false },
        ],
      },
      ({ topic, mood }) =>
        messages(
          [
            message(
              'user',
              `Write a ${mood ?? 'calm'} haiku about ${topic ?? 'nothing in particular'}.`,
            ),
            message(
              'assistant',
              'Five syllables first, then seven, then five again. Here it comes:',
            ),
          ],
          `A haiku about ${topic ?? '?'}`,
        ),
    )
    .completion({ prompt: 'haiku' }, 'mood', (value) =>
      MOODS.filter((mood) => mood.startsWith(value)),
    );
}
