import { enterpriseManaged, oauth, workloadIdentity } from '@rondo/client';
import { contextString, PATIENT, session, USER_FLOW } from './authScenarios.js';
import type { ScenarioTable } from './scenario.js';

/**
 * The authorization extensions' scenarios: enterprise-managed authorization (SEP-990), DPoP
 * (SEP-1932; with the authorization server's and the resource's nonces in `auth/dpop-nonce`) and
 * workload identity federation (SEP-1933).
 */
export const extensionAuthScenarios: ScenarioTable = {
  'auth/enterprise-managed-authorization': (run) =>
    session(
      run,
      enterpriseManaged({
        ...PATIENT,
        clientId: contextString(run, 'client_id'),
        clientSecret: contextString(run, 'client_secret'),
        identityProvider: {
          issuer: contextString(run, 'idp_issuer'),
          tokenEndpoint: contextString(run, 'idp_token_endpoint'),
          clientId: contextString(run, 'idp_client_id'),
          idToken: contextString(run, 'idp_id_token'),
        },
      }),
    ),
  'auth/dpop': (run) => session(run, oauth({ ...USER_FLOW, dpop: true })),
  'auth/dpop-nonce': (run) => session(run, oauth({ ...USER_FLOW, dpop: true })),
  'auth/wif-jwt-bearer': (run) =>
    session(
      run,
      workloadIdentity({
        ...PATIENT,
        clientId: contextString(run, 'client_id'),
        assertion: contextString(run, 'valid_jwt'),
      }),
    ),
};
