// Refusals of the OAuth endpoints. OAuth fixes their shape (RFC 6749 section 5.2, RFC 7591 section
// 3.2.2): `{"error": "<code>", "error_description": "<words>"}`, the code being one the RFC names,
// which clients act on. The routes that follow OAuth answer with that shape; every other route keeps
// the service's own (see ../../http/errors.ts).
import { AppError } from '../../core/errors.js';

export type OauthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'invalid_scope'
  | 'invalid_target'
  | 'unsupported_response_type'
  | 'access_denied'
  | 'invalid_redirect_uri'
  | 'invalid_client_metadata';

export class OauthError extends AppError {
  constructor(
    readonly oauthCode: OauthErrorCode,
    description: string,
    status = 400,
  ) {
    super(status, oauthCode, description);
  }

  /** The body OAuth prescribes. */
  body(): { error: OauthErrorCode; error_description: string } {
    return { error: this.oauthCode, error_description: this.message };
  }
}
