// The parameters of an authorization request, as the authorization endpoint reads them and the
// console's consent routes read them back from the consent page. Unknown parameters are ignored
// (RFC 6749 section 3.1).
import { z } from 'zod';

/** The console page where a signed-in member approves or denies a request. */
export const CONSENT_PAGE = '/oauth/consent';

const param = z.string().max(2000).optional();

export const authorizationRequestSchema = z.object({
  response_type: param,
  client_id: param,
  redirect_uri: param,
  code_challenge: param,
  code_challenge_method: param,
  scope: param,
  state: param,
  resource: param,
});
