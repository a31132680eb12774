/**
 * The DPoP side of the resource server's token check (RFC 9449 §7, the MCP DPoP extension): which
 * scheme a token came with, its proof, whether it is bound to the proof's key, and the
 * `WWW-Authenticate` challenges of the schemes this resource offers.
 */
import type { OAuthResourceOptions, RequestProofContext } from './resourceAuthOptions.js';
import { TokenRejectedError } from './errors.js';
import type { VerifiedToken } from './tokens.js';

/** The two schemes an access token may come with. */
export type Scheme = 'Bearer' | 'DPoP';

/** The refusal of a proof signed by another key than the token's: an `invalid_dpop_proof`. */
export const PROOF_KEY_MISMATCH = 'the proof is signed by another key than the token is bound to';

/**
 * The token of an `Authorization` header and its scheme; undefined when there is none this resource
 * takes (`DPoP` only where DPoP is enabled).
 */
export function tokenOfAuthorization(
  authorization: string | undefined,
  auth: OAuthResourceOptions,
): { scheme: Scheme; token: string } | undefined {
  const match = /^(Bearer|DPoP)[ ]+(\S+)$/i.exec(authorization?.trim() ?? '');
  if (!match?.[1] || !match[2]) return undefined;
  const scheme: Scheme = match[1].toLowerCase() === 'dpop' ? 'DPoP' : 'Bearer';
  if (scheme === 'DPoP' && !auth.dpop) return undefined;
  return { scheme, token: match[2] };
}

/**
 * Checks the one `DPoP` proof of a request for `accessToken`: the key's thumbprint, or the
 * rejection whose description goes into the `invalid_dpop_proof` challenge.
 */
export async function checkProof(
  auth: OAuthResourceOptions,
  accessToken: string,
  request: RequestProofContext | undefined,
): Promise<{ jkt: string } | TokenRejectedError> {
  const reject = (why: string) => new TokenRejectedError('invalid_dpop_proof', why);
  if (!auth.dpop || !request) return reject('DPoP proofs are not checked on this transport');
  const proof = request.dpop;
  if (typeof proof !== 'string' || proof.includes(',') || proof.trim() === '') {
    return reject('exactly one DPoP proof header is required');
  }
  const urls = [auth.resource, ...request.urls];
  try {
    return await auth.dpop.proofs.verify(proof.trim(), {
      method: request.method,
      urls,
      accessToken,
    });
  } catch (error) {
    return error instanceof TokenRejectedError ? error : reject('the DPoP proof is not valid');
  }
}

/**
 * Why a verified token may not be used as presented: a bound token (`cnf.jkt`) as `Bearer`, an
 * unbound one as `DPoP`, or a proof from another key. Undefined when it may.
 */
export function bindingProblem(
  token: VerifiedToken | undefined,
  scheme: Scheme,
  proven: { jkt: string } | undefined,
): string | undefined {
  const bound = token ? boundKeyOf(token) : undefined;
  if (scheme === 'Bearer') {
    return bound === undefined
      ? undefined
      : 'the token is bound to a key (cnf.jkt) and is only accepted with the DPoP scheme and a proof';
  }
  if (bound === undefined) return 'the token is not bound to a key (no cnf.jkt)';
  return bound === proven?.jkt ? undefined : PROOF_KEY_MISMATCH;
}

/** The thumbprint a token is bound to: the verifier's `confirmation`, else the claims' `cnf.jkt`. */
function boundKeyOf(token: VerifiedToken): string | undefined {
  if (token.confirmation) return token.confirmation.jkt;
  const cnf = token.claims?.cnf;
  if (typeof cnf !== 'object' || cnf === null || Array.isArray(cnf)) return undefined;
  const jkt = (cnf as Record<string, unknown>).jkt;
  return typeof jkt === 'string' ? jkt : undefined;
}

/**
 * The `WWW-Authenticate` value: a challenge per scheme this resource offers (`Bearer`, `DPoP` with
 * its `algs`), each naming the metadata; `params` (an error, a scope) go into the challenge of
 * `scheme`, or of every offered one when no scheme was used.
 */
export function challengeHeader(
  auth: OAuthResourceOptions,
  metadataUrl: string,
  scheme: Scheme | undefined,
  params: string,
): Record<string, string> {
  const metadata = `resource_metadata="${metadataUrl}"`;
  const offered: Scheme[] =
    auth.dpop === undefined
      ? ['Bearer']
      : auth.dpop.mode === 'required'
        ? ['DPoP']
        : ['Bearer', 'DPoP'];
  const challenges = offered.map((offer) => {
    const own = scheme === undefined || scheme === offer ? params : '';
    const algs = offer === 'DPoP' ? `algs="${auth.dpop?.proofs.algorithms.join(' ')}", ` : '';
    return `${offer} ${algs}${own}${metadata}`;
  });
  return { 'www-authenticate': challenges.join(', ') };
}
