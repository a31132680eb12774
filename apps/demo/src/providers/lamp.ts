import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { appTool, uiResource } from '@rondo/apps';
import { htmlFile } from '@rondo/apps/node';
import type { RondoServer } from '@rondo/core';
import { structured, text } from '@rondo/protocol';

/** The App's URI: its HTML is what `node build.mjs` writes to dist/apps/lamp.html. */
export const LAMP_URI = 'ui://rondo-demo/lamp.html';

/** Where the bundled App is, beside this module's folder in dist/. */
const LAMP_HTML = join(dirname(fileURLToPath(import.meta.url)), '..', 'apps', 'lamp.html');

const Color = z.enum(['green', 'red']);
type Color = z.infer<typeof Color>;

/** The lamp's answer: the colour for the App (structured), a sentence for the model. */
function lampResult(color: Color) {
  return structured({ color }, [text(`The lamp is ${color}.`)]);
}

/**
 * An MCP App: `show_lamp` shows a lamp in the colour asked for (hosts that render Apps show it
 * in the lamp's HTML), and the app-only `toggle_lamp` switches it. The lamp keeps no state on the
 * server: the App says which colour it shows, so every client has a lamp of its own.
 */
export function addLamp(server: RondoServer): void {
  uiResource(server, {
    uri: LAMP_URI,
    name: 'Lamp',
    description: 'A lamp that shows green or red, with a switch.',
    html: htmlFile(LAMP_HTML),
    meta: { prefersBorder: true, csp: {} },
  });
  appTool(
    server,
    'show_lamp',
    {
      title: 'Show the lamp',
      description: 'Shows a lamp in the colour asked for; the user can switch it in the App.',
      input: z.object({ color: Color.describe('The colour the lamp starts in') }),
      output: z.object({ color: Color }),
      ui: { resourceUri: LAMP_URI },
    },
    ({ color }) => lampResult(color),
  );
  appTool(
    server,
    'toggle_lamp',
    {
      title: 'Switch the lamp',
      description:
        'Switches the lamp from the colour it shows to the other one (the App calls it).',
      input: z.object({ from: Color.describe('The colour the lamp shows now') }),
      output: z.object({ color: Color }),
      ui: { resourceUri: LAMP_URI, visibility: ['app'] },
    },
    ({ from }) => lampResult(from === 'green' ? 'red' : 'green'),
  );
}
