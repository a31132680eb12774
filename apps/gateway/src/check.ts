import type { Provider } from '@rondo/core';
import { CatalogClaims, ProxyProvider, redactForOperator } from '@rondo/proxy';
import type { GatewayEntry } from './config.js';
import { providerFor } from './gateway.js';

/** The line `check` prints for one entry, and whether it is healthy. */
export interface CheckLine {
  readonly ok: boolean;
  readonly line: string;
}

/**
 * Starts one entry's upstream once and says what it serves (its name, era, and counts), or why it
 * failed, in one line without a stack. With the `claims` of all the entries checked, what an
 * earlier entry offers too is reported there (see {@link checkEntries}).
 */
export async function checkEntry(entry: GatewayEntry, claims?: CatalogClaims): Promise<CheckLine> {
  if (entry.kind === 'remote' && entry.oauth?.tokenExchange) {
    // It acts for each caller, and connects with a caller's token only: there is none to check with.
    const line = `${entry.key}: ok: acts for each caller (oauth.tokenExchange): connects on a caller's first request, not checked`;
    return { ok: true, line };
  }
  let provider: Provider | undefined;
  const logs: string[] = [];
  try {
    provider = await providerFor(entry, (line) => logs.push(line), { claims });
    if (provider instanceof ProxyProvider) {
      try {
        await provider.upstream.start();
      } catch (failure) {
        // The link's reason keeps the process's last stderr line, which callers never see.
        const detail = provider.upstream.downReason;
        const reason = detail
          ? `Upstream "${entry.key}" could not be reached: ${detail}`
          : oneLine(failure);
        return { ok: false, line: `${entry.key}: failed: ${reason}` };
      }
    }
    const [tools, prompts, resources] = await Promise.all([
      provider.tools?.() ?? [],
      provider.prompts?.() ?? [],
      provider.resources?.() ?? [],
    ]);
    const facts = provider instanceof ProxyProvider ? provider.upstream.facts : undefined;
    const who = facts
      ? `${facts.serverInfo?.name ?? 'unnamed'} ${facts.serverInfo?.version ?? ''}`.trim() +
        ` (${facts.era} ${facts.protocolVersion})`
      : entry.kind === 'openapi'
        ? `openapi ${entry.openapi}`
        : `prolog ${entry.kind === 'prolog' ? entry.files.join(' ') : ''}`.trim();
    const names = tools.slice(0, 5).map((tool) => tool.name);
    const more = tools.length > names.length ? ', ...' : '';
    return {
      ok: true,
      line:
        `${entry.key}: ok: ${who}: ${tools.length} tools, ${prompts.length} prompts, ${resources.length} resources` +
        (names.length > 0 ? ` (${names.join(', ')}${more})` : ''),
    };
  } catch (failure) {
    return { ok: false, line: `${entry.key}: failed: ${oneLine(failure)}` };
  } finally {
    await provider?.close?.().catch(() => undefined);
  }
}

/** A failure in one line for the operator, URLs redacted (no user, password or query values). */
function oneLine(failure: unknown): string {
  const message = failure instanceof Error ? failure.message : String(failure);
  return redactForOperator(message.split('\n').filter(Boolean).slice(0, 2).join(' / '));
}

/**
 * Checks every entry at once ({@link checkEntry}), then adds one failed line per name or URI two
 * entries offer, naming both: serving, the later entry's would be left out. `onLine` is told each
 * line as soon as it is known (a slow upstream holds back only its own), collisions last.
 */
export async function checkEntries(
  entries: readonly GatewayEntry[],
  onLine: (line: CheckLine) => void = () => undefined,
): Promise<CheckLine[]> {
  const collisions: string[] = [];
  const claims = new CatalogClaims(
    entries.map((entry) => entry.key),
    (message) => collisions.push(message),
  );
  const lines = await Promise.all(
    entries.map(async (entry) => {
      const checked = await checkEntry(entry, claims);
      onLine(checked);
      return checked;
    }),
  );
  const collided = collisions.map((message) => ({ ok: false, line: `collision: ${message}` }));
  for (const line of collided) onLine(line);
  return [...lines, ...collided];
}
