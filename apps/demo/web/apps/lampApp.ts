import { App } from '@modelcontextprotocol/ext-apps';

/**
 * The lamp App, running in the host's sandboxed frame: it shows the colour the `show_lamp` tool
 * returned, and its switch calls the app-only `toggle_lamp` tool through the host. It talks to the
 * host only with the official SDK's `App` (JSON-RPC over postMessage).
 */

type Color = 'green' | 'red';

const lamp = document.getElementById('lamp')!;
const label = document.getElementById('label')!;
const asked = document.getElementById('asked')!;
const toggle = document.getElementById('toggle') as HTMLButtonElement;
let shown: Color | undefined;

/** The colour a lamp tool's result carries in its structured content, if any. */
function colorOf(result: { structuredContent?: unknown }): Color | undefined {
  const content = result.structuredContent;
  const color =
    typeof content === 'object' && content !== null
      ? (content as Record<string, unknown>).color
      : undefined;
  return color === 'green' || color === 'red' ? color : undefined;
}

function show(color: Color | undefined): void {
  if (color === undefined) {
    label.textContent = 'The tool result named no colour.';
    return;
  }
  shown = color;
  lamp.dataset.color = color;
  label.textContent = `The lamp is ${color}.`;
  toggle.disabled = false;
}

const app = new App({ name: 'rondo-lamp', version: '0.1.0' });
// Set before connecting: the host sends the tool's input and result right after the handshake.
app.ontoolinput = ({ arguments: args }) => {
  const color = args?.color;
  asked.textContent = `Asked for ${typeof color === 'string' ? color : 'a colour'}.`;
};
app.ontoolresult = (result) => show(colorOf(result));
toggle.addEventListener('click', () => {
  if (shown === undefined) return;
  toggle.disabled = true;
  app
    .callServerTool({ name: 'toggle_lamp', arguments: { from: shown } })
    .then((result) => show(colorOf(result)))
    .catch((failure: unknown) => {
      label.textContent = `Switching failed: ${failure instanceof Error ? failure.message : String(failure)}`;
      toggle.disabled = false;
    });
});
await app.connect();
