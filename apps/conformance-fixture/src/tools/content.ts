import { audio, embeddedResource, error, image, results, text, textContent } from '@rondo/protocol';
import type { RondoServer } from '@rondo/core';
import { RED_PIXEL_PNG, SILENT_WAV } from '../media.js';

/** The tools that return each kind of content item, and the one that fails on purpose. */
export function addContentTools(server: RondoServer): void {
  server
    .tool('test_simple_text', { description: 'Tests simple text content response' }, () =>
      text('This is a simple text response for testing.'),
    )
    .tool('test_image_content', { description: 'Tests image content response' }, () =>
      image(RED_PIXEL_PNG, 'image/png'),
    )
    .tool('test_audio_content', { description: 'Tests audio content response' }, () =>
      audio(SILENT_WAV, 'audio/wav'),
    )
    .tool(
      'test_embedded_resource',
      { description: 'Tests embedded resource content response' },
      () =>
        embeddedResource(
          textContent(
            'test://embedded-resource',
            'text/plain',
            'This is an embedded resource content.',
          ),
        ),
    )
    .tool(
      'test_multiple_content_types',
      { description: 'Tests response with multiple content types (text, image, resource)' },
      () =>
        results([
          text('Multiple content types test:'),
          image(RED_PIXEL_PNG, 'image/png'),
          embeddedResource(
            textContent(
              'test://mixed-content-resource',
              'application/json',
              JSON.stringify({ test: 'data', value: 123 }),
            ),
          ),
        ]),
    )
    .tool(
      'test_error_handling',
      { description: 'Tests error response handling: always returns a tool execution error' },
      () => error('This tool intentionally returns an error for testing'),
    );
}
