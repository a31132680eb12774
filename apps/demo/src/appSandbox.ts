import type { Request, Response } from 'express';

/** Where the playground frames an App: a page of this server, under the App's policy. */
export const APP_SANDBOX_PATH = '/app-sandbox';

/** The longest policy the sandbox takes; the playground's are a few hundred bytes. */
const MAX_POLICY_LENGTH = 8192;

/** Visible ASCII and spaces: what a Content-Security-Policy header holds (no line breaks). */
const POLICY_TEXT = /^[\x20-\x7e]+$/;

/**
 * The sandbox page's whole document: it takes the App's HTML from the page that framed it (the
 * first message from its parent) and writes it into itself. The document is this page's, so the
 * App runs under the policy of this page's response header, whatever its HTML holds: a comment,
 * a `<header>`, a script before its `<head>` or a `>` in an attribute cannot move a policy that
 * is not in the HTML at all.
 */
const SANDBOX_PAGE = `<!doctype html><meta charset="utf-8"><title>MCP App</title><script>
addEventListener('message', function take(event) {
  if (event.source !== parent || !event.data || typeof event.data.rondoAppHtml !== 'string') return;
  removeEventListener('message', take);
  document.open();
  document.write(event.data.rondoAppHtml);
  document.close();
});
</script>`;

/**
 * Serves the sandbox page with the policy the playground computed from the App's `_meta.ui.csp`
 * (its `csp` query parameter) as its `Content-Security-Policy` response header, as hosts do on a
 * second origin. A missing, overlong or unprintable policy is 400: the page is never served
 * without one.
 */
export function serveAppSandbox(req: Request, res: Response): void {
  const policy = req.query.csp;
  if (
    typeof policy !== 'string' ||
    policy.length > MAX_POLICY_LENGTH ||
    !POLICY_TEXT.test(policy)
  ) {
    res.status(400).type('text/plain').send('Bad Request: the csp parameter must be a policy\n');
    return;
  }
  res.set({
    'content-security-policy': policy,
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  });
  res.send(SANDBOX_PAGE);
}
