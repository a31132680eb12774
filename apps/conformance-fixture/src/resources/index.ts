import { blobContent, contents, textContent } from '@rondo/protocol';
import type { RondoServer } from '@rondo/core';
import { RED_PIXEL_PNG } from '../media.js';

/** The URI of the resource whose contents change on a timer. */
export const WATCHED_RESOURCE = 'test://watched-resource';

/**
 * The resources of the conformance surface. `test://watched-resource` changes every
 * `watchIntervalMs`; the returned function stops its timer.
 */
export function addResources(server: RondoServer, watchIntervalMs: number): () => void {
  let version = 0;
  server
    .resource(
      'test://static-text',
      {
        name: 'Static Text Resource',
        description: 'A static text resource',
        mimeType: 'text/plain',
      },
      (uri) =>
        contents([
          textContent(uri, 'text/plain', 'This is the content of the static text resource.'),
        ]),
    )
    .resource(
      'test://static-binary',
      { name: 'Static Binary Resource', description: 'A static PNG image', mimeType: 'image/png' },
      (uri) => contents([blobContent(uri, 'image/png', RED_PIXEL_PNG)]),
    )
    .resource(
      WATCHED_RESOURCE,
      {
        name: 'Watched Resource',
        description: 'A resource that changes periodically',
        mimeType: 'text/plain',
      },
      (uri) =>
        contents([textContent(uri, 'text/plain', `Watched resource content, version ${version}`)]),
    )
    .resourceTemplate(
      'test://template/{id}/data',
      {
        name: 'Template Resource',
        description: 'A resource template with an id',
        mimeType: 'application/json',
      },
      (uri, { id }) => {
        const value = String(id);
        const body = { id: value, templateTest: true, data: `Data for ID: ${value}` };
        return contents([textContent(uri, 'application/json', JSON.stringify(body))]);
      },
    )
    .completion({ resource: 'test://template/{id}/data' }, 'id', (value) =>
      ['1', '2', '3', '123'].filter((option) => option.startsWith(value)),
    );
  const timer = setInterval(() => {
    version += 1;
    server.resourceUpdated(WATCHED_RESOURCE);
  }, watchIntervalMs);
  // Node and Bun timers can be unref'd; Deno's and workerd's have no such notion.
  (timer as { unref?: () => void }).unref?.();
  return () => clearInterval(timer);
}
