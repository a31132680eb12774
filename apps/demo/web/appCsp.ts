import type { JsonObject } from './jsonRpc.js';

/** The origins a CSP list of an App's `_meta.ui.csp` names, as one source list. */
function origins(csp: JsonObject | undefined, list: string): string {
  const value = csp?.[list];
  return Array.isArray(value) ? value.filter((item) => typeof item === 'string').join(' ') : '';
}

/**
 * The Content-Security-Policy an App runs under, built from its resource's `_meta.ui.csp` as the
 * Apps specification lays it out: nothing beyond the document itself and inline code, plus the
 * origins the resource declared for each kind of load. No declaration, no external origin.
 */
export function appContentSecurityPolicy(csp: JsonObject | undefined): string {
  const resources = origins(csp, 'resourceDomains');
  const directives = [
    "default-src 'none'",
    `script-src 'self' 'unsafe-inline' ${resources}`,
    `style-src 'self' 'unsafe-inline' ${resources}`,
    `connect-src 'self' ${origins(csp, 'connectDomains')}`,
    `img-src 'self' data: ${resources}`,
    `font-src 'self' ${resources}`,
    `media-src 'self' data: ${resources}`,
    `frame-src ${origins(csp, 'frameDomains') || "'none'"}`,
    "object-src 'none'",
    `base-uri ${origins(csp, 'baseUriDomains') || "'self'"}`,
  ];
  return directives.map((directive) => directive.trim()).join('; ');
}

/** The playground server's page that frames an App under its policy (`src/appSandbox.ts`). */
export const APP_SANDBOX_PATH = '/app-sandbox';
