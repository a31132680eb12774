// The real nginx in front of local servers, configured with the deploy kit's site file
// (deploy/nginx/rondo.conf). The implementation is shared with `pnpm cluster`, which cannot load
// TypeScript, so it lives in tooling/scripts/nginx.mjs.
export {
  DEPLOY_SITE,
  NginxTemplateError,
  freePort,
  renderSite,
  startNginx,
  type RunningNginx,
} from '../../tooling/scripts/nginx.mjs';
